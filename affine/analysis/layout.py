"""Memref layouts: compositions, strided forms, and normalisation to the identity layout.

Invariant: normalisation never changes which element an access touches.  A memref of type
``T`` with layout ``L`` (the composition of its index maps and layout map) becomes a memref
with the identity layout whose shape holds every ``L(i)`` for ``i`` in ``T``'s index space,
and each access ``A[f(x)]`` becomes ``A'[L(f(x))]``.  A layout is normalised only when that
is sound: ``L`` affine (semi-affine after binding its symbols to constants), one-to-one on
the index space (the seed specification requires it), and never negative there.

This follows ``-normalize-memrefs`` (mlir/lib/Dialect/MemRef/Transforms/NormalizeMemRefs.cpp,
``normalizeMemRefType`` in mlir/lib/Dialect/Affine/Utils/Utils.cpp): the new size of each
dimension is the largest value of the layout result over the index space, plus one.  It
differs where mlir-opt 22 is unsound (research/mlir-affine.md §2.10): a layout with negative
values (``(d0) -> (d0 - 2)``) is refused rather than given out-of-range subscripts; a
``memref.dim`` of a normalised memref is replaced by the old constant size instead of reading
the new shape; ``memref.load/store`` get their indices through the whole layout; vector
accesses are rewritten only when each vector stays contiguous, and DMA transfers of
elements under a layout are refused.  Alloc symbols bound to constants are specialised.

Bounds and the one-to-one test are exact.  Without a solver they come from branch and bound
over the index space (:class:`BoxOracle`); :mod:`poly.layout` answers them with ISL.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from affine.dialects.affine_dialect import DmaStartOp, is_valid_dim, is_valid_symbol
from affine.dialects.builders import affine_apply, constant_index, memref_alloc
from affine.dialects.common import segments
from affine.errors import PolyError
from affine.ir.attributes import AffineMapAttr, IntegerAttr, TypeAttr
from affine.ir.core import Module, Operation, Value, replace_uses
from affine.ir.strides import row_major_strides, strided_from_map
from affine.ir.types import DYNAMIC, FunctionType, MemRefType, StridedLayout
from affine.math.affine_map import AffineMap
from affine.math.algebra import compose, provably_one_to_one, specialize_symbols
from affine.math.expr import (
    ADD,
    CEILDIV,
    CONST,
    DIM,
    FLOORDIV,
    MOD,
    MUL,
    AffineExpr,
    ceil_div,
    constant,
    dim,
    floor_div,
    mod,
)
from affine.math.simplify import (
    Bound,
    FlattenError,
    dim_ranges,
    exprs_equal,
    flatten,
    simplify_map,
)
from affine.math.symbolic import latex_map

# -- compositions and strided forms -------------------------------------------------------------


def composed_layout(t: MemRefType, within_shape: bool = True) -> AffineMap:
    """The layout composition of ``t`` as one simplified map (identity for no layout).

    With ``within_shape``, simplification may use ``0 <= i_k < shape[k]`` (accesses outside
    the shape are undefined anyway): ``(d0 mod 64)`` on a 64-element memref is ``d0``.
    """
    ranges = shape_ranges(t.shape) if within_shape else None
    return simplify_map(t.layout_map(), ranges)


def strided_form(t: MemRefType, oracle: LayoutOracle | None = None) -> StridedLayout | None:
    """The strided form of ``t``'s layout (MLIR's ``getStridesAndOffset``): row-major
    strides for the identity layout of a static shape, the layout itself when strided, and
    for an affine layout the strides of the normalised memref it stands for, when linear."""
    if isinstance(t.layout, StridedLayout):
        return t.layout
    if t.has_identity_layout:
        if not t.has_static_shape:
            return None
        return strided_from_map(AffineMap.get(t.rank, 0, [_row_major(t.shape)]))
    try:
        new_type, layout = normalize_memref_type(t, oracle=oracle)
    except LayoutNotNormalizable:
        return strided_from_map(composed_layout(t))
    linear = AffineMap.get(new_type.rank, 0, [_row_major(new_type.shape)]).compose(layout)
    return strided_from_map(simplify_map(linear, shape_ranges(t.shape)))


def _row_major(shape: Sequence[int]) -> AffineExpr:
    """The linear position of ``(d0, ..)`` in a row-major array of ``shape``."""
    expr: AffineExpr = constant(0)
    for k, stride in enumerate(row_major_strides(shape)):
        expr = expr + dim(k) * stride
    return expr


# -- exact bounds and one-to-one without a solver ---------------------------------------------------

Interval = tuple[int, int]
Box = tuple[Interval, ...]


def _interval(e: AffineExpr, box: Box) -> Interval:
    """Bounds of ``e`` over the integer box (exact for each node given its operands' ranges
    are dense; sound always)."""
    kind = e.kind
    if kind == CONST:
        return e.value, e.value
    if kind == DIM:
        return box[e.value]
    if kind not in (ADD, MUL, FLOORDIV, CEILDIV, MOD):
        raise ValueError(f"{e} uses symbols")
    lo, hi = _interval(e.lhs, box)
    if kind == ADD:
        lo2, hi2 = _interval(e.rhs, box)
        return lo + lo2, hi + hi2
    if e.rhs.kind != CONST:
        raise ValueError(f"{e} is semi-affine")
    q = e.rhs.value
    if kind == MUL:
        return (lo * q, hi * q) if q >= 0 else (hi * q, lo * q)
    if kind == FLOORDIV:
        a, b = floor_div(lo, q), floor_div(hi, q)
        return min(a, b), max(a, b)
    if kind == CEILDIV:
        a, b = ceil_div(lo, q), ceil_div(hi, q)
        return min(a, b), max(a, b)
    if hi - lo + 1 >= abs(q) or floor_div(lo, q) != floor_div(hi, q):
        return (0, q - 1) if q > 0 else (q + 1, 0)
    return min(mod(lo, q), mod(hi, q)), max(mod(lo, q), mod(hi, q))


def _maximum(e: AffineExpr, box: Box, max_boxes: int) -> int:
    """The exact maximum of ``e`` over an integer box, by best-first branch and bound."""
    centre = [(lo + hi) // 2 for lo, hi in box]
    best = max(
        e.evaluate(centre), e.evaluate([lo for lo, _ in box]), e.evaluate([hi for _, hi in box])
    )
    heap = [(-_interval(e, box)[1], box)]
    explored = 0
    while heap:
        negative_bound, current = heapq.heappop(heap)
        if -negative_bound <= best:
            break
        explored += 1
        if explored > max_boxes:
            raise LayoutNotNormalizable(
                f"the bounds of {e} were not found within {max_boxes} steps; "
                "poly.layout computes them with ISL"
            )
        widest = max(range(len(current)), key=lambda k: current[k][1] - current[k][0])
        lo, hi = current[widest]
        if lo == hi:
            best = max(best, e.evaluate([lo for lo, _ in current]))
            continue
        middle = (lo + hi) // 2
        for part in ((lo, middle), (middle + 1, hi)):
            sub = current[:widest] + (part,) + current[widest + 1 :]
            best = max(best, e.evaluate([(a + b) // 2 for a, b in sub]))
            bound = _interval(e, sub)[1]
            if bound > best:
                heapq.heappush(heap, (-bound, sub))
    return best


class LayoutOracle(Protocol):
    """Exact answers about a symbol-free pure affine map on the box ``0 <= d_k < shape[k]``."""

    def result_bounds(self, m: AffineMap, shape: Sequence[int]) -> list[Interval]:
        """Least and greatest value of each result."""
        ...

    def one_to_one(self, m: AffineMap, shape: Sequence[int]) -> bool:
        """Whether distinct points of the box have distinct images."""
        ...


@dataclass(frozen=True)
class BoxOracle:
    """Solver-free exact answers: bounds by branch and bound over the box; one-to-one by a
    proof from the map's form (dims recovered linearly, or mixed-radix strides) or, for boxes
    of at most ``max_points`` points, by enumeration."""

    max_boxes: int = 100_000
    max_points: int = 1 << 16

    def result_bounds(self, m: AffineMap, shape: Sequence[int]) -> list[Interval]:
        box = tuple((0, size - 1) for size in shape)
        return [
            (-_maximum(-r, box, self.max_boxes), _maximum(r, box, self.max_boxes))
            for r in m.results
        ]

    def one_to_one(self, m: AffineMap, shape: Sequence[int]) -> bool:
        if provably_one_to_one(m) or _mixed_radix(m, shape):
            return True
        points = 1
        for size in shape:
            points *= size
        if points > self.max_points:
            raise LayoutNotNormalizable(
                f"{m} is not shown one-to-one on {list(shape)} without a solver; "
                "poly.layout decides it with ISL"
            )
        seen: set[tuple[int, ...]] = set()
        for point in itertools.product(*(range(size) for size in shape)):
            image = tuple(m.evaluate(point))
            if image in seen:
                return False
            seen.add(image)
        return True


def _mixed_radix(m: AffineMap, shape: Sequence[int]) -> bool:
    """One result ``sum(c_k * d_k) + c`` whose coefficients, sorted, each exceed the span of
    the smaller terms: distinct points give distinct sums (like digits of a number)."""
    if m.num_results != 1:
        return False
    try:
        flat = flatten(m.results[0])
    except FlattenError:
        return False
    terms = []
    for monomial, c in flat.terms:
        if monomial == ():
            continue
        atom = monomial[0] if len(monomial) == 1 else None
        if not isinstance(atom, AffineExpr) or atom.kind != DIM:
            return False
        terms.append((abs(c), shape[atom.value]))
    if len(terms) < sum(1 for size in shape if size > 1):
        return False  # a dimension that varies but is not used
    span = 0
    for c, size in sorted(terms):
        if c <= span:
            return False
        span += c * (size - 1)
    return True


BOX_ORACLE = BoxOracle()


# -- normalisation of a type -----------------------------------------------------------------------


class LayoutNotNormalizable(PolyError, ValueError):
    """A layout that cannot be turned into an identity layout (the message says why)."""


def normalize_memref_type(
    t: MemRefType,
    symbol_values: Mapping[int, int] | None = None,
    oracle: LayoutOracle | None = None,
) -> tuple[MemRefType, AffineMap]:
    """The identity-layout type holding ``t`` and the map from old to new indices.

    The new size of dimension ``k`` is the greatest value of layout result ``k`` over the
    index space, plus one (a 64x64 memref with 16x16 tiles
    ``(d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)`` becomes 4x4x16x16).
    ``symbol_values`` binds layout symbols (the alloc's symbol operands) to constants.
    Raises :class:`LayoutNotNormalizable` for dynamic shapes, unbound symbols, semi-affine
    layouts, layouts that are not one-to-one, and negative layout values.
    """
    oracle = oracle or BOX_ORACLE
    if t.has_identity_layout or t.rank == 0:
        return t, AffineMap.identity(t.rank)
    if not t.has_static_shape:
        raise LayoutNotNormalizable(f"{t} has dynamic sizes")
    layout = t.layout_map()
    if symbol_values:
        layout = specialize_symbols(layout, symbol_values)
    if layout.num_symbols:
        raise LayoutNotNormalizable(
            f"the layout of {t} has symbols that are not bound to constants"
        )
    layout = simplify_map(layout, shape_ranges(t.shape))
    if not layout.is_pure_affine():
        raise LayoutNotNormalizable(f"the layout of {t} is semi-affine")
    if layout.num_dims != t.rank:
        raise LayoutNotNormalizable(f"the layout of {t} does not take {t.rank} indices")
    if not oracle.one_to_one(layout, t.shape):
        raise LayoutNotNormalizable(
            f"the layout of {t} is not one-to-one on its index space (the seed "
            "specification requires it)"
        )
    bounds = oracle.result_bounds(layout, t.shape)
    for k, (low, _) in enumerate(bounds):
        if low < 0:
            raise LayoutNotNormalizable(f"layout result {k} of {t} takes the negative value {low}")
    new_type = MemRefType([high + 1 for _, high in bounds], t.element_type, None, t.memory_space)
    return new_type, layout


# -- the IR rewrite --------------------------------------------------------------------------------

_INDEXED = {  # op name -> position of the memref it indexes through its "map" property
    "affine.load": 0,
    "affine.vector_load": 0,
    "affine.store": 1,
    "affine.vector_store": 1,
    "affine.prefetch": 0,
}
_PASS_THROUGH = ("memref.dealloc", "func.call", "func.return")


@dataclass
class _Plan:
    """A memref value to normalise: the new type and the old-to-new index map."""

    value: Value
    new_type: MemRefType
    layout: AffineMap


@dataclass
class _FunctionState:
    op: Operation
    name: str
    plans: list[_Plan] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def normalize_memrefs(
    module: Module, oracle: LayoutOracle | None = None, remarks: list[str] | None = None
) -> Module:
    """A copy of ``module`` in which every memref with a non-identity layout that can be
    normalised soundly has the identity layout, with all its uses rewritten (allocations,
    function arguments and results, calls, loads, stores, prefetches, deallocations).

    As in ``-normalize-memrefs``, a function is left alone when one of its memrefs cannot
    be normalised or has a use that cannot be rewritten, and so is every function connected
    to it by calls; the reasons are appended to ``remarks`` if a list is given.
    """
    oracle = oracle or BOX_ORACLE
    result = module.clone()
    functions = {
        _function_name(op): _FunctionState(op, _function_name(op))
        for op in result.walk()
        if op.name == "func.func"
    }
    for state in functions.values():
        _plan_function(state, functions, oracle)
    blocked = _blocked_functions(functions)
    if remarks is not None:
        for name in sorted(blocked):
            reasons = functions[name].reasons or ["it calls or is called by a function left alone"]
            remarks.extend(f"@{name} is left alone: {reason}" for reason in reasons)
    # Call results are values of the caller, planned there; a callee's new result types
    # follow from its returned values, so calls and signatures stay consistent.
    for name, state in functions.items():
        if name in blocked:
            continue
        for plan in state.plans:
            _rewrite_value(plan)
        _update_signature(state, oracle)
    return result


def _function_name(op: Operation) -> str:
    return op.properties["sym_name"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class


def _function_type(op: Operation) -> FunctionType:
    return op.properties["function_type"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class


def _needs_normalizing(t: object) -> bool:
    return isinstance(t, MemRefType) and not t.has_identity_layout


def _plan_function(
    state: _FunctionState, functions: dict[str, _FunctionState], oracle: LayoutOracle
) -> None:
    """Decide the new type of every memref with a layout in the function, or record why
    the function must be left alone."""
    op = state.op
    if not op.regions or not op.regions[0].blocks:  # a declaration: only its signature
        ftype = _function_type(op)
        for t in list(ftype.inputs) + list(ftype.results):
            if _needs_normalizing(t):
                try:
                    normalize_memref_type(t, oracle=oracle)
                except LayoutNotNormalizable as err:
                    state.reasons.append(str(err))
        return
    values: list[tuple[Value, Mapping[int, int] | None]] = []
    for arg in op.regions[0].blocks[0].arguments:
        if _needs_normalizing(arg.type):
            values.append((arg, None))
    for inner in op.nested_ops():
        for result in inner.results:
            if not _needs_normalizing(result.type):
                continue
            if inner.name in ("memref.alloc", "memref.alloca"):
                bound = _alloc_symbol_values(inner)
                if bound is None:
                    state.reasons.append(
                        f"{result.type}: the alloc's layout symbols are not constants"
                    )
                    continue
                values.append((result, bound))
            elif inner.name == "func.call":
                values.append((result, None))
            else:
                state.reasons.append(f"{inner.name} produces a memref with a layout")
    for value, bound in values:
        try:
            new_type, layout = normalize_memref_type(value.type, bound, oracle)
        except LayoutNotNormalizable as err:
            state.reasons.append(str(err))
            continue
        problem = _unsupported_use(op, value, layout, functions)
        if problem:
            state.reasons.append(problem)
            continue
        state.plans.append(_Plan(value, new_type, layout))


def _alloc_symbol_values(alloc: Operation) -> dict[int, int] | None:
    values = {}
    for j, v in enumerate(segments(alloc, 1)):
        constant = _constant_value(v)
        if constant is None:
            return None
        values[j] = constant
    return values


def _constant_value(v: Value) -> int | None:
    op = v.owner_op
    if op is None or op.name != "arith.constant":
        return None
    attr = op.properties.get("value")
    return attr.value if isinstance(attr, IntegerAttr) else None


def _unsupported_use(
    function: Operation, value: Value, layout: AffineMap, functions: dict[str, _FunctionState]
) -> str | None:
    """Why a use of ``value`` cannot be rewritten, or None when all can."""
    for user in function.walk():
        for index, operand in enumerate(user.operands):
            if operand is not value:
                continue
            name = user.name
            if _INDEXED.get(name) == index:
                if name.startswith("affine.vector_") and not _vector_stays_contiguous(user, layout):
                    return f"{name} of a vector that the layout of {value.type} splits"
                continue
            if name in _PASS_THROUGH:
                if name == "func.call" and _callee(user) not in functions:
                    return f"call to an unknown function @{_callee(user)}"
                continue
            if name == "affine.dma_wait" or (
                name == "affine.dma_start" and _dma_tag_position(user) == index
            ):
                continue
            if name in ("memref.load", "memref.store"):
                indices = user.operands[1:] if name == "memref.load" else user.operands[2:]
                if all(is_valid_dim(v) or is_valid_symbol(v) for v in indices):
                    continue
                return f"{name} of {value.type} with indices that are not affine"
            if name == "memref.dim" and _constant_value(user.operands[1]) is not None:
                continue
            if name == "affine.dma_start":
                return (
                    "affine.dma_start copies runs of consecutive elements, which the layout "
                    f"of {value.type} reorders"
                )
            return f"{value.type} is used by {name}, which cannot be rewritten"
    return None


def _callee(call: Operation) -> str:
    return call.properties["callee"].leaf  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class


def _dma_tag_position(op: Operation) -> int:
    """Operand position of an ``affine.dma_start``'s tag memref."""
    dma = DmaStartOp(op)
    return 2 + dma.src_map.num_inputs + dma.dst_map.num_inputs


def _vector_stays_contiguous(op: Operation, layout: AffineMap) -> bool:
    """Each element of the (1-D) vector lands right after the previous one in the last
    dimension of the new layout, for every value of the access's operands."""
    vector_type = op.results[0].type if op.name == "affine.vector_load" else op.operands[0].type
    shape = getattr(vector_type, "shape", ())
    if len(shape) != 1:
        return False
    access: AffineMap = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    start = compose(layout, access)
    for offset in range(1, shape[0]):
        moved = AffineMap.get(
            access.num_dims,
            access.num_symbols,
            list(access.results[:-1]) + [access.results[-1] + offset],
        )
        end = compose(layout, moved)
        for k, (a, b) in enumerate(zip(start.results, end.results)):
            expected = a + offset if k == len(start.results) - 1 else a
            if exprs_equal(b, expected) is not True:
                return False
    return True


def _blocked_functions(functions: dict[str, _FunctionState]) -> set[str]:
    """Functions with a reason to be left alone, and every function connected to one by
    calls (in either direction), as MLIR's setCalleesAndCallersNonNormalizable."""
    neighbours: dict[str, set[str]] = {name: set() for name in functions}
    for name, state in functions.items():
        for inner in state.op.walk():
            if inner.name == "func.call" and _callee(inner) in functions:
                neighbours[name].add(_callee(inner))
                neighbours[_callee(inner)].add(name)
    blocked: set[str] = set()
    pending = [name for name, state in functions.items() if state.reasons]
    while pending:
        name = pending.pop()
        if name in blocked:
            continue
        blocked.add(name)
        pending.extend(neighbours[name] - blocked)
    return blocked


def _rewrite_value(plan: _Plan) -> None:
    """Give ``plan.value`` its new type (replacing an alloc) and rewrite every use."""
    value = plan.value
    owner = value.owner_op
    if owner is not None and owner.name in ("memref.alloc", "memref.alloca"):
        fresh = memref_alloc(plan.new_type, alloca=owner.name == "memref.alloca")
        for key in ("alignment",):
            if key in owner.properties:
                fresh.properties[key] = owner.properties[key]
        fresh.attributes.update(owner.attributes)
        fresh.loc = owner.loc
        block = owner.parent
        assert block is not None
        block.insert_before(owner, fresh)
        root = _root(owner)
        _rewrite_uses(root, value, fresh.result, plan.layout)
        owner.erase()
        return
    root = _root(owner) if owner is not None else _root_of_block_argument(value)
    value.type = plan.new_type
    _rewrite_uses(root, value, value, plan.layout)


def _root(op: Operation) -> Operation:
    while op.parent_op is not None and op.name != "func.func":
        op = op.parent_op
    return op


def _root_of_block_argument(value: Value) -> Operation:
    block = value.parent_block
    assert block is not None and block.parent_op is not None
    return _root(block.parent_op)


def _rewrite_uses(root: Operation, old: Value, new: Value, layout: AffineMap) -> None:
    for user in list(root.walk()):
        for index, operand in enumerate(list(user.operands)):
            if operand is not old:
                continue
            name = user.name
            if _INDEXED.get(name) == index:
                access: AffineMap = user.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
                user.properties["map"] = AffineMapAttr(compose(layout, access))
                user.operands[index] = new
            elif name == "affine.dma_start":
                _rewrite_dma_tag(user, new, layout)
            elif name == "affine.dma_wait":
                access = user.attributes["tag_map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
                user.attributes["tag_map"] = AffineMapAttr(compose(layout, access))
                user.operands[0] = new
            elif name in ("memref.load", "memref.store"):
                _rewrite_memref_access(user, index, new, layout)
            elif name == "memref.dim":
                _replace_dim(user, old)
            else:  # dealloc, call, return: the operand just changes type
                user.operands[index] = new


def _rewrite_dma_tag(op: Operation, new: Value, layout: AffineMap) -> None:
    position = _dma_tag_position(op)
    access = op.attributes["tag_map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    op.attributes["tag_map"] = AffineMapAttr(compose(layout, access))
    op.operands[position] = new


def _rewrite_memref_access(op: Operation, index: int, new: Value, layout: AffineMap) -> None:
    """``memref.load %m[%i, %j]`` becomes ``memref.load %new[L_0(%i, %j), ...]`` with one
    ``affine.apply`` per result of the layout."""
    indices = op.operands[index + 1 :]
    block = op.parent
    assert block is not None
    new_indices = []
    for r in layout.results:
        apply = affine_apply(AffineMap.get(layout.num_dims, 0, [r]), indices)
        block.insert_before(op, apply)
        new_indices.append(apply.result)
    op.operands[index + 1 :] = new_indices
    op.operands[index] = new


def _replace_dim(op: Operation, old: Value) -> None:
    """``memref.dim`` of the old memref is its old (static) size."""
    size = old.type.shape[_constant_value(op.operands[1])]  # type: ignore[attr-defined]  # a memref: memref.dim's verifier checked it
    fresh = constant_index(size)
    block = op.parent
    assert block is not None
    block.insert_before(op, fresh)
    replace_uses(_root(op), op.result, fresh.result)
    op.erase()


def _update_signature(state: _FunctionState, oracle: LayoutOracle) -> None:
    """Set the function type from the (new) argument types and returned values; for a
    declaration, normalise the declared types."""
    op = state.op
    old = _function_type(op)
    if not op.regions or not op.regions[0].blocks:
        inputs = [_normalized(t, oracle) for t in old.inputs]
        results = [_normalized(t, oracle) for t in old.results]
    else:
        inputs = [a.type for a in op.regions[0].blocks[0].arguments]
        results = list(old.results)
        for inner in op.walk():
            if inner.name == "func.return" and inner.parent_op is op:
                results = [v.type for v in inner.operands]
    op.properties["function_type"] = TypeAttr(FunctionType(inputs, results))


def _normalized(t, oracle: LayoutOracle):
    return normalize_memref_type(t, oracle=oracle)[0] if _needs_normalizing(t) else t


def shape_ranges(shape: Iterable[int]) -> dict[AffineExpr, Bound]:
    """``0 <= d_i < shape[i]`` for a static memref shape (dynamic sizes: ``d_i >= 0``)."""
    return dim_ranges([(0, None if size == DYNAMIC else size - 1) for size in shape])


def latex_layout(t: MemRefType) -> str:
    """A memref type: its shape and element type, and each map of its layout composition
    (index maps, then the layout map), or the strided form."""
    shape = " \\times ".join("?" if s == DYNAMIC else str(s) for s in t.shape)
    text = f"\\mathtt{{memref}}\\langle {shape} \\times \\mathtt{{{t.element_type}}} \\rangle"
    if isinstance(t.layout, StridedLayout):
        strides = ", ".join("?" if s == DYNAMIC else str(s) for s in t.layout.strides)
        offset = "?" if t.layout.offset == DYNAMIC else str(t.layout.offset)
        return text + f",\\ \\mathrm{{strides}} = [{strides}],\\ \\mathrm{{offset}} = {offset}"
    for m in t.layout:
        text += ",\\ " + latex_map(m)
    return text
