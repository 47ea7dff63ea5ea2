"""Values carried in ``affine.for`` ``iter_args`` demoted to memory, one cell per instance
of the loops around (scalar expansion): the check, the rewrite and the
``affine-expand-iter-args`` pass.

Invariant: a loop carrying scalars in ``iter_args`` (``%acc`` of symm's ``temp2`` or of
ludcmp's ``w``) becomes a loop without them that reads ``%acc`` from ``T[e - lo]`` at the
top of its body and stores what it yielded there at the end, where ``e`` are the IVs of
the loops around it and ``lo`` their least values; the initial value is stored before the
loop and the result loaded after it. The IVs' ranges come from interval arithmetic over
the bounds, whose operands may be constants and the function's ``index`` arguments: a loop
up to ``%n`` gets a buffer of ``%n`` cells (``memref.alloc`` sized by ``affine.max`` with
1, at the function's entry). Each instance of the loops around has its own cell,
so the rewrite adds no dependence between them, and every value is computed by the same
operations in the same order (bit-identical results).

To the dependence model a loop with ``iter_args`` is one statement (the chain through
the carried value is invisible to it), so no schedule can move loops across it. Once the
value lives in memory, its chain is an ordinary dependence: symm's ``k`` loop can go
outside ``j`` and run stride-1 along it. The auto-scheduler tries ISL's schedule on the
expanded function beside the others and keeps it only where the cost model expects a gain.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from affine.analysis.layout import interval
from affine.analysis.loops import lower_bound, upper_bound
from affine.analysis.value_map import ValueMap, constant_value, fully_compose
from affine.dialects.builders import (
    affine_load,
    affine_min_max,
    affine_store,
    affine_yield,
    arith,
    memref_alloc,
    memref_dealloc,
)
from affine.dialects.builders import constant as constant_op
from affine.exec.semantics import FLOAT_IDENTITIES, REDUCTION_OPS, integer_identity
from affine.ir.core import BlockArgument, Module, Operation, Value, replace_uses
from affine.ir.diagnostics import Location
from affine.ir.types import DYNAMIC, FloatType, IndexType, IntegerType, MemRefType, Type
from affine.math.affine_map import AffineMap
from affine.math.expr import ADD, CONST, DIM, MOD, AffineExpr, constant, dim, symbol
from affine.ops import ForOp, ParallelOp
from poly.legality import LEGAL, Verdict, where
from poly.tile_model import TYPICAL_PARAMETER
from transforms.data_copy import element_bytes
from transforms.loop_pass import functions, refuse
from transforms.loop_utils import enclosing_function, new_loop, replace_results
from transforms.registry import PassContext

Range = tuple[AffineExpr, AffineExpr]  # least and greatest value, over the function's symbols
MAX_BYTES = 1 << 28  # the most memory the buffers of one loop may take


def _bounds(e: AffineExpr, box: list[Range]) -> Range:
    """The least and greatest value of ``e`` (over dims ranging in ``box``, symbols exact)
    as expressions of the symbols: sound, exact for each node given its operands' ranges
    are dense (a ``mod`` of a symbolic range is its divisor's whole range)."""
    if e.is_symbolic_or_constant():
        return e, e
    if e.kind == DIM:
        return box[e.value]
    lo, hi = _bounds(e.lhs, box)
    if e.kind == ADD:
        lo2, hi2 = _bounds(e.rhs, box)
        return lo + lo2, hi + hi2
    if e.rhs.kind != CONST:
        raise ValueError(f"{e} is semi-affine")
    q = e.rhs.value
    if e.kind == MOD:
        if lo.kind == CONST and hi.kind == CONST:
            least, greatest = interval(dim(0) % q, ((lo.value, hi.value),))
            return constant(least), constant(greatest)
        return (constant(0), constant(q - 1)) if q > 0 else (constant(q + 1), constant(0))
    ends = (lo.binary(e.kind, q), hi.binary(e.kind, q))  # monotone, decreasing for q < 0
    return ends if q >= 0 else ends[::-1]


def _tightest(ends: list[AffineExpr], pick: Callable[[list[int]], int]) -> AffineExpr:
    """One of ``ends`` (all of them bounds of an IV on the same side): ``pick`` of the
    constant ones where there are some, else the first (any one is sound)."""
    constants = [e.value for e in ends if e.kind == CONST]
    return constant(pick(constants)) if constants else ends[0]


@dataclass
class Ranges:
    """A range of each IV (least and greatest value, expressions of ``symbols``: the
    function's arguments that the bounds use, in order of first use)."""

    of: dict[Value, Range]
    symbols: list[Value]

    def result_ranges(self, vm: ValueMap) -> list[Range] | str:
        """The range of each result of ``vm``, or why there is none."""
        vm = fully_compose(vm)
        m = vm.map
        box: list[Range] = []
        for v in vm.operands:
            c = constant_value(v)
            if v in self.of:
                box.append(self.of[v])
            elif c is not None:
                box.append((constant(c), constant(c)))
            elif _is_argument(v):
                if v not in self.symbols:
                    self.symbols.append(v)
                s = symbol(self.symbols.index(v))
                box.append((s, s))
            else:
                name = getattr(v, "name", None) or "a value"
                return f"a bound uses {name}, not a loop IV, a constant or an argument"
        as_dims = [dim(m.num_dims + j) for j in range(m.num_symbols)]
        try:
            return [_bounds(r.replace(None, as_dims), box) for r in m.results]
        except ValueError as e:
            return str(e)


def _is_argument(v: Value) -> bool:
    """Whether ``v`` is an index argument of its function's entry block (defined before
    the buffers, which are allocated there)."""
    if not isinstance(v, BlockArgument) or not isinstance(v.type, IndexType):
        return False
    region = v.owner.parent
    if region is None or region.parent is None:
        return False
    return region.parent.name == "func.func" and region.blocks[0] is v.owner


def iv_ranges(loops: list[Operation]) -> Ranges | str:
    """A range holding every value of the IV of each of ``loops`` (outermost first, each
    bounded by constants, the function's arguments and the IVs of the ones before), or why
    there is none: the IV is at least a lower bound's least value and below an upper
    bound's greatest."""
    ranges = Ranges({}, [])
    for loop in loops:
        lower = ranges.result_ranges(lower_bound(loop))
        upper = ranges.result_ranges(upper_bound(loop))
        if isinstance(lower, str):
            return lower
        if isinstance(upper, str):
            return upper
        least = _tightest([low for low, _ in lower], max)
        greatest = _tightest([high - 1 for _, high in upper], min)
        if least.kind == CONST and greatest.kind == CONST:
            greatest = constant(max(least.value, greatest.value))
        ranges.of[ForOp(loop).induction_var] = (least, greatest)
    return ranges


def _around(loop: Operation) -> list[Operation] | str:
    """The ``affine.for`` loops around ``loop`` in its function, outermost first, or why
    the expansion cannot index by them."""
    found: list[Operation] = []
    for op in loop.ancestors():
        if op.name == "func.func":
            if len(op.regions[0].blocks) != 1:  # the buffers live from entry to return
                return "its function has more than one block"
            return found[::-1]
        if op.name == "affine.for":
            found.append(op)
        elif op.name != "affine.if":
            return f"it is inside {where(op)}"
    return "it is not inside a function"


def _sizes(ranges: Ranges, ivs: Sequence[Value]) -> list[AffineExpr]:
    """The extent of the buffer along each of ``ivs`` (one cell per value of its range)."""
    return [ranges.of[iv][1] - ranges.of[iv][0] + 1 for iv in ivs]


def check_expansion(loop: Operation) -> Verdict:
    """Whether ``loop``'s ``iter_args`` can live in memory: it has some, all scalars, the
    loops around it have ranges over constants and the function's arguments (the buffers'
    shape), and the buffers take at most :data:`MAX_BYTES` (each argument taken as
    :data:`TYPICAL_PARAMETER`)."""
    f = ForOp(loop)
    if not f.iter_args:
        return Verdict(False, "it carries no value in iter_args")
    for arg in f.iter_args:
        if not isinstance(arg.type, FloatType | IntegerType | IndexType):
            return Verdict(False, f"it carries a {arg.type}, not a scalar")
    around = _around(loop)
    if isinstance(around, str):
        return Verdict(False, around)
    ranges = iv_ranges(around)
    if isinstance(ranges, str):
        return Verdict(False, ranges)
    typical = [constant(TYPICAL_PARAMETER)] * len(ranges.symbols)
    extents = [
        e.replace(None, typical) for e in _sizes(ranges, [ForOp(a).induction_var for a in around])
    ]
    cells = math.prod(max(e.value, 1) for e in extents)  # constants: no symbol is left
    size = cells * sum(element_bytes(arg.type) for arg in f.iter_args)
    if size > MAX_BYTES:
        return Verdict(False, f"its buffers would take {size} bytes, over {MAX_BYTES}")
    return LEGAL


def _at(loc: Location | None, op: Operation) -> Operation:
    """``op`` located at ``loc``. The buffers' accesses are located where the source writes
    what they stand for (the loop: the initial value stored and the result loaded; the
    iter_arg: its value loaded; the yield: the value stored), so that the cost model
    (:func:`poly.tile_model.instance_counts`) counts their runs in every schedule of the
    function."""
    op.loc = loc
    return op


def expand_iter_args(loop: Operation) -> Operation:
    """Rewrite ``loop`` (``check_expansion`` holds) in place as described in the module
    docstring; return the new loop."""
    around = _around(loop)
    assert isinstance(around, list)
    ranges = iv_ranges(around)
    assert isinstance(ranges, Ranges)
    ivs = [ForOp(a).induction_var for a in around]
    symbols = ranges.symbols
    cell = AffineMap.get(
        len(ivs),
        len(symbols),
        [dim(k) - ranges.of[iv][0] for k, iv in enumerate(ivs)] or [constant(0)],
    )
    indices = [*ivs, *symbols]
    function = enclosing_function(loop)
    assert function is not None
    entry = function.regions[0].blocks[0]
    shape: list[int] = []
    dynamic: list[Value] = []
    sizes: dict[AffineExpr, Value] = {}
    for extent in _sizes(ranges, ivs) or [constant(1)]:
        if extent.kind == CONST:
            shape.append(extent.value)
            continue
        if extent not in sizes:
            at_least_one = AffineMap.get(0, len(symbols), [extent, constant(1)])
            size = affine_min_max("max", at_least_one, symbols)
            sizes[extent] = entry.insert(len(sizes), size).result
        dynamic.append(sizes[extent])
        shape.append(DYNAMIC)
    f = ForOp(loop)
    block = loop.parent
    assert block is not None
    buffers = []
    for init in f.inits:
        alloc = memref_alloc(MemRefType(shape, init.type), dynamic)
        buffer = entry.insert(len(sizes), alloc).result
        entry.insert_before(entry.operations[-1], memref_dealloc(buffer))
        block.insert_before(loop, _at(loop.loc, affine_store(init, buffer, cell, indices)))
        buffers.append(buffer)
    fresh = new_loop(lower_bound(loop), upper_bound(loop), f.step, like=loop)
    body = ForOp(fresh).body
    body.operations.clear()
    old = f.body
    replace_uses(old, f.induction_var, ForOp(fresh).induction_var)
    for arg, buffer in zip(f.iter_args, buffers, strict=True):
        load = body.append(_at(arg.loc or loop.loc, affine_load(buffer, cell, indices)))
        replace_uses(old, arg, load.result)
    yielded = old.operations[-1]
    for op in old.operations[:-1]:
        body.append(op)
    for value, buffer in zip(yielded.operands, buffers, strict=True):
        body.append(_at(yielded.loc, affine_store(value, buffer, cell, indices)))
    body.append(affine_yield())
    block.insert_before(loop, fresh)
    results = [
        block.insert_after(fresh, _at(loop.loc, affine_load(b, cell, indices))).result
        for b in reversed(buffers)
    ]
    replace_results(loop, results[::-1])
    loop.erase()
    return fresh


def serial_reductions(function: Operation, context: PassContext) -> list[str]:
    """Rewrite, in place, each ``affine.parallel`` of ``function`` with scalar reductions
    (``reduce ("addf")``, ...; not ``"assign"``) as a nest of ``affine.for`` loops, one per
    dimension in its order, carrying each reduction in ``iter_args`` from its neutral
    element and combining the values yielded in turn: one of the orders an
    ``affine.parallel`` reduction allows, the one the interpreter runs (bit-identical
    results), and a loop :func:`expand_function` can move into memory, so that schedules
    reorder what was one statement. Returns what was rewritten, with a remark for each."""
    done = []
    for op in [o for o in function.walk(post_order=True) if o.name == "affine.parallel"]:
        par = ParallelOp(op)
        kinds = par.reductions
        if not kinds or "assign" in kinds:
            continue
        if not all(isinstance(r.type, (FloatType, IntegerType)) for r in op.results):
            continue
        done.append(f"reductions of {where(op)} run in order in affine.for loops")
        context.emit(op, "remark", done[-1])
        _serialize(op, par, kinds)
    return done


def _serialize(op: Operation, par: ParallelOp, kinds: list[str]) -> None:
    """:func:`serial_reductions` of one ``affine.parallel``."""
    block = op.parent
    assert block is not None
    carried: list[Value] = [
        block.insert_before(op, _at(op.loc, constant_op(_identity(k, r.type), r.type))).result
        for k, r in zip(kinds, op.results)
    ]
    lower, upper = par.lower_bounds_map, par.upper_bounds_map
    loops: list[Operation] = []
    first_lower = first_upper = 0
    groups = zip(par.lower_bounds_groups, par.upper_bounds_groups, par.steps)
    for lower_count, upper_count, step in groups:
        lows = lower.results[first_lower : first_lower + lower_count]
        ups = upper.results[first_upper : first_upper + upper_count]
        first_lower += lower_count
        first_upper += upper_count
        loop = new_loop(
            ValueMap(
                AffineMap.get(lower.num_dims, lower.num_symbols, lows),
                tuple(par.lower_bounds_operands),
            ),
            ValueMap(
                AffineMap.get(upper.num_dims, upper.num_symbols, ups),
                tuple(par.upper_bounds_operands),
            ),
            step,
            carried,
            like=op,
        )
        if loops:
            ForOp(loops[-1]).body.append(loop)
        else:
            block.insert_before(op, loop)
        loops.append(loop)
        carried = list(ForOp(loop).iter_args)
    old = par.body
    inner = ForOp(loops[-1]).body
    for iv, loop in zip(par.induction_vars, loops, strict=True):
        replace_uses(old, iv, ForOp(loop).induction_var)
    yielded = old.operations[-1]
    for moved in old.operations[:-1]:
        inner.append(moved)
    combined = [
        inner.append(_at(yielded.loc, arith(REDUCTION_OPS[k], [acc, v]))).result
        for k, acc, v in zip(kinds, carried, yielded.operands, strict=True)
    ]
    inner.append(affine_yield(combined))
    for outer, nested in itertools.pairwise(loops):
        ForOp(outer).body.append(affine_yield(list(nested.results)))
    replace_results(op, list(loops[0].results))
    op.erase()


def _identity(kind: str, t: Type) -> int | float:
    """The neutral element MLIR starts an ``affine.parallel`` reduction of ``kind`` from."""
    if isinstance(t, FloatType):
        return FLOAT_IDENTITIES[kind]
    assert isinstance(t, IntegerType)
    return integer_identity(kind, t.width)


def expand_function(function: Operation, context: PassContext) -> list[str]:
    """Expand, in place, every loop of ``function`` with ``iter_args`` that
    :func:`check_expansion` accepts (innermost first), with a remark for each loop. Returns
    what was expanded."""
    done = []
    for loop in [op for op in function.walk(post_order=True) if op.name == "affine.for"]:
        if not ForOp(loop).iter_args:
            continue
        verdict = check_expansion(loop)
        if not verdict:
            refuse(context, loop, "iter_args not expanded", verdict.reason)
            continue
        count = len(ForOp(loop).iter_args)
        done.append(f"iter_args of {where(loop)} expanded into {count} buffer(s)")
        context.emit(loop, "remark", done[-1])
        expand_iter_args(loop)
    return done


@dataclass
class ExpandIterArgs:
    """``--affine-expand-iter-args``: values carried in ``iter_args`` demoted to memory, one
    cell per instance of the loops around (see the module docstring)."""

    name = "affine-expand-iter-args"

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            expand_function(function, context)
        return module


__all__ = [
    "ExpandIterArgs",
    "check_expansion",
    "expand_function",
    "expand_iter_args",
    "iv_ranges",
    "serial_reductions",
]
