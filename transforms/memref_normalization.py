"""``-normalize-memrefs`` as mlir-opt names it: memrefs with a non-identity layout get the
identity layout, their uses rewritten through the layout map.

Invariant: normalisation never changes which element an access touches (the rewrite of
:func:`normalize_memrefs`; the types and bounds come from
:func:`affine.analysis.layout.normalize_memref_type`, answered exactly by ISL through
:data:`poly.layout.ISL_ORACLE`). A function the pass leaves alone, and every function connected
to it by calls, is reported by a remark at the function with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeGuard

from affine.analysis.layout import LayoutNotNormalizable, LayoutOracle, normalize_memref_type
from affine.dialects.affine_dialect import DmaStartOp, is_valid_dim, is_valid_symbol
from affine.dialects.builders import affine_apply, constant_index, memref_alloc
from affine.dialects.common import segments
from affine.ir.attributes import AffineMapAttr, IntegerAttr, TypeAttr
from affine.ir.core import Module, Operation, Value, replace_uses
from affine.ir.types import FunctionType, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.algebra import compose
from affine.math.simplify import exprs_equal
from poly.layout import ISL_ORACLE
from transforms.registry import PassContext, PassOptions

_LEFT_ALONE = " is left alone: "


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
    module: Module, remarks: list[str] | None = None, oracle: LayoutOracle = ISL_ORACLE
) -> Module:
    """A copy of ``module`` in which every memref with a non-identity layout that can be
    normalised soundly has the identity layout, with all its uses rewritten (allocations,
    function arguments and results, calls, loads, stores, prefetches, deallocations).

    As in ``-normalize-memrefs``, a function is left alone when one of its memrefs cannot
    be normalised or has a use that cannot be rewritten, and so is every function connected
    to it by calls; the reasons are appended to ``remarks`` if a list is given.
    """
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


def _needs_normalizing(t: object) -> TypeGuard[MemRefType]:
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
    values: list[tuple[Value, MemRefType, Mapping[int, int] | None]] = []
    for arg in op.regions[0].blocks[0].arguments:
        if _needs_normalizing(arg.type):
            values.append((arg, arg.type, None))
    for inner in op.nested_ops():
        for result in inner.results:
            result_type = result.type
            if not _needs_normalizing(result_type):
                continue
            if inner.name in ("memref.alloc", "memref.alloca"):
                bound = _alloc_symbol_values(inner)
                if bound is None:
                    state.reasons.append(
                        f"{result.type}: the alloc's layout symbols are not constants"
                    )
                    continue
                values.append((result, result_type, bound))
            elif inner.name == "func.call":
                values.append((result, result_type, None))
            else:
                state.reasons.append(f"{inner.name} produces a memref with a layout")
    for value, memref_type, symbol_values in values:
        try:
            new_type, layout = normalize_memref_type(memref_type, symbol_values, oracle)
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
    shape: tuple[int, ...] = getattr(vector_type, "shape", ())
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


@dataclass
class NormalizeMemRefs(PassOptions):
    """``-normalize-memrefs``: every memref whose layout can be normalised soundly gets the
    identity layout (allocations, arguments and results, calls, loads and stores)."""

    name = "normalize-memrefs"

    def run(self, module: Module, context: PassContext) -> Module:
        remarks: list[str] = []
        result = normalize_memrefs(module, remarks)
        for remark in remarks:
            name, _, reason = remark.partition(_LEFT_ALONE)
            function = result.function(name.removeprefix("@"))
            context.emit(function, "remark", f"memrefs not normalized: {reason}")
        return result
