"""Values carried in ``affine.for`` ``iter_args`` demoted to memory, one cell per instance
of the loops around (scalar expansion): the check, the rewrite and the
``affine-expand-iter-args`` pass.

Invariant: a loop carrying scalars in ``iter_args`` (``%acc`` of symm's ``temp2`` or of
ludcmp's ``w``) becomes a loop without them that reads ``%acc`` from ``T[e - lo]`` at the
top of its body and stores what it yielded there at the end, where ``e`` are the IVs of
the loops around it and ``lo`` their least values; the initial value is stored before the
loop and the result loaded after it. Each instance of the loops around has its own cell,
so the rewrite adds no dependence between them, and every value is computed by the same
operations in the same order (bit-identical results).

To the dependence model a loop with ``iter_args`` is one statement (the chain through
the carried value is invisible to it), so no schedule can move loops across it. Once the
value lives in memory, its chain is an ordinary dependence: symm's ``k`` loop can go
outside ``j`` and run stride-1 along it. The auto-scheduler tries ISL's schedule on the
expanded function beside the others and keeps it only where the cost model expects a gain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from affine.analysis.layout import interval
from affine.analysis.loops import lower_bound, upper_bound
from affine.analysis.value_map import ValueMap, constant_value, fully_compose
from affine.dialects.builders import (
    affine_load,
    affine_store,
    affine_yield,
    memref_alloc,
    memref_dealloc,
)
from affine.ir.core import Module, Operation, Value, replace_uses
from affine.ir.types import FloatType, IndexType, IntegerType, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.expr import constant, dim
from affine.ops import ForOp
from poly.legality import LEGAL, Verdict, where
from transforms.data_copy import element_bytes
from transforms.loop_pass import functions, refuse
from transforms.loop_utils import enclosing_function, new_loop, replace_results
from transforms.registry import PassContext

Range = tuple[int, int]
MAX_BYTES = 1 << 28  # the most memory the buffers of one loop may take


def _result_ranges(vm: ValueMap, ranges: dict[Value, Range]) -> list[Range] | str:
    """The least and greatest value of each result of ``vm`` over ``ranges`` (sound, by
    interval arithmetic), or why there is none."""
    vm = fully_compose(vm)
    m = vm.map
    box: list[Range] = []
    for v in vm.operands:
        c = constant_value(v)
        if v in ranges:
            box.append(ranges[v])
        elif c is not None:
            box.append((c, c))
        else:
            name = getattr(v, "name", None) or "a value"
            return f"a bound uses {name}, not a loop IV or a constant"
    as_dims = [dim(m.num_dims + j) for j in range(m.num_symbols)]
    try:
        return [interval(r.replace(None, as_dims), tuple(box)) for r in m.results]
    except ValueError as e:
        return str(e)


def iv_ranges(loops: list[Operation]) -> dict[Value, Range] | str:
    """A range holding every value of the IV of each of ``loops`` (outermost first, each
    bounded by constants and the IVs of the ones before), or why there is none: the IV is
    at least every lower bound's least value and below every upper bound's greatest."""
    ranges: dict[Value, Range] = {}
    for loop in loops:
        lower = _result_ranges(lower_bound(loop), ranges)
        upper = _result_ranges(upper_bound(loop), ranges)
        if isinstance(lower, str):
            return lower
        if isinstance(upper, str):
            return upper
        least = max(low for low, _ in lower)
        greatest = min(high for _, high in upper) - 1
        ranges[ForOp(loop).induction_var] = (least, max(least, greatest))
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


def check_expansion(loop: Operation) -> Verdict:
    """Whether ``loop``'s ``iter_args`` can live in memory: it has some, all scalars, the
    loops around it have constant ranges (the buffers' shape), and the buffers take at
    most :data:`MAX_BYTES`."""
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
    cells = math.prod(high - low + 1 for low, high in ranges.values())
    size = cells * sum(element_bytes(arg.type) for arg in f.iter_args)
    if size > MAX_BYTES:
        return Verdict(False, f"its buffers would take {size} bytes, over {MAX_BYTES}")
    return LEGAL


def expand_iter_args(loop: Operation) -> Operation:
    """Rewrite ``loop`` (``check_expansion`` holds) in place as described in the module
    docstring; return the new loop."""
    around = _around(loop)
    assert isinstance(around, list)
    ranges = iv_ranges(around)
    assert isinstance(ranges, dict)
    ivs = [ForOp(a).induction_var for a in around]
    lows = [ranges[iv][0] for iv in ivs]
    shape = [ranges[iv][1] - ranges[iv][0] + 1 for iv in ivs] or [1]
    cell = AffineMap.get(len(ivs), 0, [dim(k) - low for k, low in enumerate(lows)] or [constant(0)])
    function = enclosing_function(loop)
    assert function is not None
    entry = function.regions[0].blocks[0]
    f = ForOp(loop)
    block = loop.parent
    assert block is not None
    buffers = []
    for init in f.inits:
        buffer = entry.insert(0, memref_alloc(MemRefType(shape, init.type))).result
        entry.insert_before(entry.operations[-1], memref_dealloc(buffer))
        block.insert_before(loop, affine_store(init, buffer, cell, ivs))
        buffers.append(buffer)
    fresh = new_loop(lower_bound(loop), upper_bound(loop), f.step, like=loop)
    body = ForOp(fresh).body
    body.operations.clear()
    old = f.body
    replace_uses(old, f.induction_var, ForOp(fresh).induction_var)
    for arg, buffer in zip(f.iter_args, buffers, strict=True):
        load = body.append(affine_load(buffer, cell, ivs))
        replace_uses(old, arg, load.result)
    yielded = old.operations[-1]
    for op in old.operations[:-1]:
        body.append(op)
    for value, buffer in zip(yielded.operands, buffers, strict=True):
        body.append(affine_store(value, buffer, cell, ivs))
    body.append(affine_yield())
    block.insert_before(loop, fresh)
    results = [
        block.insert_after(fresh, affine_load(b, cell, ivs)).result for b in reversed(buffers)
    ]
    replace_results(loop, results[::-1])
    loop.erase()
    return fresh


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


__all__ = ["ExpandIterArgs", "check_expansion", "expand_function", "expand_iter_args", "iv_ranges"]
