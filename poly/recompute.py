"""Recomputation slices: the producer's instances each consumer iteration needs, run again.

Invariant: the module :func:`recompute_slice` builds computes what the function computed.
It adds a *copy nest* just before the consumer: for every consumer iteration ``c`` (the
first ``depth`` consumer loops, inside the loops around both nests) and every producer
instance ``p`` of the exact slice ``{ c -> p : a value p writes is read in iteration c }``,
the producer's body runs again and stores into a buffer of its own at ``[c - low, e(p) -
offset(c)]``; the consumer reads that buffer instead. Each copy instance is read by one
consumer iteration only, so fusing the copy nest into the consumer (an ordinary
producer-consumer fusion, checked on the whole function by
:meth:`poly.schedule.Schedule.check`) puts it in that iteration and the buffer's ``c``
dimensions drop: what remains is the slice's footprint, a constant box per iteration.

The copy reads the producer's inputs later than the producer did, so it is built only
when the producer is one statement that writes nothing but the intermediate and never reads
it, every consumer read of the intermediate gets its value from the producer in the same
iteration of the enclosing loops, and nothing between the two nests writes what the
producer reads (the consumer itself is left to the fusion check). The producer stays when
its results are still read (or escape), and is removed otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import islpy as isl

from affine.analysis.value_map import canonicalize
from affine.dialects.builders import memref_alloc, memref_dealloc
from affine.errors import PolyError
from affine.ir.attributes import AffineMapAttr
from affine.ir.core import Block, Module, Operation, Value
from affine.ir.types import MemRefType
from poly.codegen import CodegenError, generate
from poly.context import coalesced, isl_context
from poly.convert import map_from_isl
from poly.footprints import constant_span, least_span
from poly.model import READ, WRITE
from poly.schedule import Schedule
from poly.schedule_apply import clone_top
from poly.schedule_program import EFFECTS, Dependence, Program, Statement
from poly.slices import (
    PRODUCER,
    Candidate,
    reads_written,
    sibling_items,
    touches,
    value_flows,
)
from poly.tile_model import TYPICAL_PARAMETER

COPY = "R"  # the tuple name of the copy nest's instances while it is generated


@dataclass(frozen=True)
class Recomputation:
    """The function with the producer's slice copied before the consumer (see the module
    docstring): ``buffer`` is the copy's buffer in ``module``, ``slice`` the exact slice
    ``{ [outer loops, consumer iteration] -> producer instances }``; ``copies`` and
    ``originals`` count the copy's and the producer's instances (None when unbounded)."""

    module: Module
    buffer: Value
    slice: isl.Map
    copies: int | None
    originals: int | None
    producer_kept: bool

    @property
    def redundancy(self) -> float | None:
        """Producer instances run beyond the source's, as a fraction of the source's."""
        if self.copies is None or not self.originals:
            return None
        extra = self.copies - (0 if self.producer_kept else self.originals)
        return extra / self.originals


def recompute_slice(schedule: Schedule, candidate: Candidate, depth: int) -> Recomputation | str:
    """The function of ``schedule`` with the slice of ``candidate``'s producer copied before
    its consumer for the first ``depth`` consumer loops, or why it cannot be."""
    program = schedule.program
    level = candidate.first.level
    producer = _copyable(program, candidate)
    if isinstance(producer, str):
        return producer
    statement, memref = producer
    why = _inputs_kept(schedule, candidate, statement)
    if why is not None:
        return why
    name = memref.name or "the intermediate"
    readers = [
        t
        for t in candidate.second.statements
        if any(a.memref is memref and a.kind == READ for a in t.accesses)
    ]
    if any(t.depth < level + depth for t in readers):
        return f"a read of {name} is outside the consumer's first {depth} loops"
    reach = _reach(program, statement, memref, readers, level, depth)
    if isinstance(reach, str):
        return reach
    slice_ = reach.reverse()
    writes = [a for a in statement.accesses if a.kind == WRITE]
    written = _union([touches(program, statement, a.relation) for a in writes])
    footprint = slice_.apply_range(written)  # K[outer, c] -> M[element]
    box = _buffer_box(footprint, level, depth)
    if isinstance(box, str):
        return f"{name}: {box}"
    low, offsets, shape = box
    memref_type = memref.type
    assert isinstance(memref_type, MemRefType)
    if math.prod(shape[depth:]) >= math.prod(memref_type.shape):
        return f"the box of {name} one iteration writes is no smaller than {name}"
    try:
        module, buffer, kept = _rewrite(
            program, statement, memref, readers, slice_, written, level, depth, low, offsets, shape
        )
    except (CodegenError, PolyError) as e:
        return f"the copy of the slice cannot be written as affine loops: {e}"
    copies = _count(_copy_domain(slice_, level, depth))
    originals = _count(statement.domain)
    return Recomputation(module, buffer, slice_, copies, originals, kept)


# -- what may be copied --------------------------------------------------------------------------


def _copyable(program: Program, candidate: Candidate) -> tuple[Statement, Value] | str:
    """The producer's one statement and the memref it writes, or why it cannot be run again."""
    if candidate.kind != PRODUCER:
        return "only a producer's instances are recomputed"
    statements = candidate.first.statements
    if len(statements) != 1 or statements[0].depth <= candidate.first.level:
        return "the producer is not one statement in its own loops"
    (s,) = statements
    if s.unseen:
        return f"the producer has an op whose effects are unseen ({s.unseen[0].name})"
    written = {a.memref for a in s.accesses if a.kind == WRITE}
    if len(written) != 1 or not written <= set(candidate.memrefs):
        return "the producer writes more than the intermediate"
    (memref,) = written
    name = memref.name or "the intermediate"
    for a in s.accesses:
        if not a.exact:
            return f"an access of the producer ({a.op.name} at {a.op.loc}) is not exact"
        if a.kind == WRITE and a.op.name != "affine.store":
            return f"the producer writes {name} with {a.op.name}"
        if a.kind == READ and a.memref is memref:
            return f"the producer reads {name}, which it writes"
    return s, memref


def _inputs_kept(schedule: Schedule, candidate: Candidate, s: Statement) -> str | None:
    """None when nothing between the producer and the consumer writes what the producer
    reads (the copy reads it later); otherwise the dependence that does."""
    between: set[str] = set()
    for items in sibling_items(schedule):
        if candidate.first in items:
            for item in items:
                if candidate.first.position < item.position < candidate.second.position:
                    between.update(t.name for t in item.statements)
    dependences: list[Dependence]
    dependences, _ = schedule.program.dependences()
    for d in dependences:
        if d.source is s and d.target.name in between and d.kind in ("WAR", EFFECTS):
            return f"an input of the producer is written before the consumer: {d.describe()}"
    return None


def _reach(
    program: Program,
    s: Statement,
    memref: Value,
    readers: list[Statement],
    level: int,
    depth: int,
) -> isl.Map | str:
    """``{ S[outer, p] -> K[outer, c] }``: the consumer iterations that read what each
    producer instance writes, or why the values do not stay between the two nests."""
    name = memref.name or "the intermediate"
    flows = value_flows(program, memref)
    if isinstance(flows, str):
        return flows
    into = [d for d in flows if d.target in readers]
    if any(d.source is not s for d in into):
        return f"a read of {name} in the consumer gets a value the producer did not write"
    reach: isl.Map | None = None
    if reads_written(program, memref, readers, into) is not None:
        return f"a read of {name} in the consumer gets a value written before the producer"
    for d in into:
        same = isl.Map.universe(d.relation.get_space())
        for k in range(level):
            same = same.equate(isl.dim_type.in_, k, isl.dim_type.out, k)
        if not d.relation.is_subset(same):
            return f"a value of {name} flows from one iteration of the loops around both nests to another"
        step = d.relation.apply_range(_prefix(d.target, level + depth))
        reach = step if reach is None else reach.union(step.align_params(reach.get_space()))
    if reach is None or reach.is_empty():
        return f"the consumer reads no value of {name} the producer writes"
    return coalesced(reach)


def _prefix(t: Statement, n: int) -> isl.Map:
    """``{ t[x] -> K[x0 .. x(n-1)] }``."""
    identity = isl.Map.identity(isl.Space.map_from_set(t.space))
    result = identity.project_out(isl.dim_type.out, n, t.depth - n).set_tuple_name(
        isl.dim_type.out, "K"
    )
    for k in range(n):
        result = result.set_dim_name(isl.dim_type.out, k, f"k{k}")
    return result


def _union(maps: list[isl.Map]) -> isl.Map:
    result = maps[0]
    for m in maps[1:]:
        result = result.union(m.align_params(result.get_space()))
    return result


# -- the copy's buffer -------------------------------------------------------------------------


def _buffer_box(
    footprint: isl.Map, level: int, depth: int
) -> tuple[list[int], list[isl.Aff], list[int]] | str:
    """The buffer's box: the least value of each consumer dimension, an offset per element
    dimension (one affine function of the iteration such that the elements an iteration
    writes lie in ``[offset, offset + extent)``), and the shape; or why there is none."""
    iterations = footprint.domain()
    low, shape = [], []
    for k in range(level, level + depth):
        span = constant_span(iterations, _var(iterations.get_space(), k))
        if span is None:
            return "the consumer's loops have no constant bounds"
        low.append(span[0])
        shape.append(span[1] - span[0] + 1)
    offsets = []
    wrapped = footprint.wrap()
    to_iteration = isl.MultiAff.domain_map(footprint.get_space())
    to_element = isl.MultiAff.range_map(footprint.get_space())
    for k in range(footprint.dim(isl.dim_type.out)):
        pieces = [aff for _, aff in footprint.dim_min(k).get_pieces()]
        best = least_span(
            wrapped, to_element.get_at(k), [aff.pullback_multi_aff(to_iteration) for aff in pieces]
        )
        if best is None:
            return f"the elements one iteration writes span no constant box in dimension {k}"
        count, position, shift = best
        offsets.append(pieces[position].add_constant_val(_val(shift)))
        shape.append(count)
    return low, offsets, shape


def _var(space: isl.Space, k: int) -> isl.Aff:
    return isl.Aff.var_on_domain(isl.LocalSpace.from_space(space), isl.dim_type.set, k)


def _val(value: int) -> isl.Val:
    return isl.Val.int_from_si(isl_context(), value)


def _buffer_index(
    space: isl.Space, level: int, depth: int, low: list[int], offsets: list[isl.Aff]
) -> isl.Map:
    """``{ [K[outer, c] -> M[e]] -> [c - low, e - offset(outer, c)] }`` on the wrapped
    space of the footprint map ``space``."""
    to_iteration = isl.MultiAff.domain_map(space)
    to_element = isl.MultiAff.range_map(space)
    results = [to_iteration.get_at(level + j).add_constant_val(_val(-low[j])) for j in range(depth)]
    results += [
        to_element.get_at(k).sub(offset.pullback_multi_aff(to_iteration))
        for k, offset in enumerate(offsets)
    ]
    values = isl.Space.set_alloc(isl_context(), 0, len(results)).align_params(space)
    target = isl.Space.map_from_domain_and_range(space.wrap(), values)
    afflist = isl.AffList.alloc(isl_context(), len(results))
    for aff in results:
        afflist = afflist.add(aff)
    return isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(target, afflist))


def _copy_domain(slice_: isl.Map, level: int, depth: int) -> isl.Set:
    """``R[outer, c, p]``: the copy's instances (the slice with the outer loops once)."""
    flat = slice_.wrap().flatten()
    return flat.project_out(isl.dim_type.set, level + depth, level).set_tuple_name(COPY)


def _count(points: isl.Set) -> int | None:
    """How many points ``points`` has (parameters at their typical value), None if unbounded."""
    for k in range(points.dim(isl.dim_type.param)):
        points = points.fix_val(isl.dim_type.param, k, _val(TYPICAL_PARAMETER))
    try:
        count = points.count_val()
    except isl.Error:
        return None
    return int(count.to_python()) if count.is_int() else None


# -- the rewrite ---------------------------------------------------------------------------------


def _rewrite(
    program: Program,
    s: Statement,
    memref: Value,
    readers: list[Statement],
    slice_: isl.Map,
    written: isl.Map,
    level: int,
    depth: int,
    low: list[int],
    offsets: list[isl.Aff],
    shape: list[int],
) -> tuple[Module, Value, bool]:
    """The new module (see the module docstring), the copy's buffer in it, and whether the
    producer stays."""
    function = program.function
    top, copy, ops, values = clone_top(function)
    body = ops[function].regions[0].blocks[0]
    old_type = memref.type
    assert isinstance(old_type, MemRefType)
    buffer_type = MemRefType(shape, old_type.element_type, None, old_type.memory_space)
    alloc = memref_alloc(buffer_type)
    body.insert(0, alloc)
    buffer = alloc.results[0]
    buffer.name = f"{memref.name or '%buffer'}_slice"
    if program.terminator is not None:
        body.insert_before(ops[program.terminator], memref_dealloc(buffer))
    index = _buffer_index(slice_.apply_range(written).get_space(), level, depth, low, offsets)
    symbols = list(program.params)
    symbol_values = [values[program.params[n]] for n in symbols]

    def affine_map(relation: isl.Map, dims: list[Value]) -> tuple[AffineMapAttr, list[Value]]:
        m = map_from_isl(relation, symbols)
        assert m.num_dims == len(dims) and m.num_symbols == len(symbols)
        m, operands = canonicalize(m, [*dims, *symbol_values], promote_symbols=False)
        return AffineMapAttr(m), operands

    # the consumer reads the copy's buffer
    for t in readers:
        to_buffer = _prefix(t, level + depth)
        for a in t.accesses:
            if a.memref is not memref or a.kind != READ:
                continue
            element = touches(program, t, a.relation)
            at = to_buffer.align_params(element.get_space()).range_product(element)
            at = at.apply_range(index.align_params(at.get_space())).intersect_domain(t.domain)
            load = ops[a.op]
            attr, operands = affine_map(at, [values[iv] for iv in t.ivs])
            load.operands = [buffer, *operands]
            load.properties["map"] = attr

    # the copy nest, just before the consumer
    outer = [values[iv] for iv in s.ivs[:level]]
    domain = _copy_domain(slice_, level, depth)
    store_index = _copy_store_index(domain, written, index, level, depth)
    generated = domain
    names = []
    for k in range(level):
        names.append(f"{s.dims[k]}_outer")
        generated = generated.set_dim_name(isl.dim_type.set, k, names[-1])
    generated = generated.move_dims(
        isl.dim_type.param, generated.dim(isl.dim_type.param), isl.dim_type.set, 0, level
    )
    params = {**dict(zip(symbols, symbol_values)), **dict(zip(names, outer))}
    consumer_root = _root(readers[0], level)
    anchor = ops[consumer_root]
    block = anchor.parent
    assert isinstance(block, Block)
    stores = {a.op for a in s.accesses if a.kind == WRITE}

    def emit(_: str, ivs: list[Value], into: Block, before: Operation | None) -> None:
        mapping = {values[iv]: v for iv, v in zip(s.ivs, [*outer, *ivs[depth:]])}
        attr, operands = affine_map(store_index, [*outer, *ivs])
        for op in (*s.recompute, *s.ops):
            clone = ops[op].clone(mapping)
            for original, cloned in zip(op.walk(), clone.walk()):
                if original in stores:
                    cloned.operands = [cloned.operands[0], buffer, *operands]
                    cloned.properties["map"] = attr
            if before is None:
                into.append(clone)
            else:
                into.insert_before(before, clone)

    in_order = isl.Map.identity(isl.Space.map_from_set(generated.get_space()))
    in_order = in_order.intersect_domain(generated).reset_tuple_id(isl.dim_type.out)
    generate(in_order, params, block, anchor, emit)
    kept = _producer_stays(program, s, memref, ops, values, level)
    return Module(copy, getattr(top, "source", None)), buffer, kept


def _copy_store_index(
    domain: isl.Set, written: isl.Map, index: isl.Map, level: int, depth: int
) -> isl.Map:
    """``{ R[outer, c, p] -> buffer cell }`` of the copy's store."""
    n = domain.dim(isl.dim_type.set)
    space = isl.Space.map_from_set(domain.get_space())
    identity = isl.Map.identity(space)
    to_iteration = identity.project_out(isl.dim_type.out, level + depth, n - level - depth)
    to_iteration = to_iteration.set_tuple_name(isl.dim_type.out, "K")
    keep = identity.project_out(isl.dim_type.out, level, depth)  # R[outer, c, p] -> [outer, p]
    to_instance = keep.set_tuple_id(isl.dim_type.out, written.get_tuple_id(isl.dim_type.in_))
    to_element = to_instance.apply_range(written.align_params(to_instance.get_space()))
    at = to_iteration.align_params(to_element.get_space()).range_product(to_element)
    return at.apply_range(index.align_params(at.get_space())).intersect_domain(domain)


def _root(t: Statement, level: int) -> Operation:
    """The top op of ``t``'s nest at ``level`` (its loop there, or its first op)."""
    return t.loops[level] if t.depth > level else t.ops[0]


def _producer_stays(
    program: Program,
    s: Statement,
    memref: Value,
    ops: dict[Operation, Operation],
    values: dict[Value, Value],
    level: int,
) -> bool:
    """Remove the producer (and its buffer) from the copy when the buffer is a local
    allocation nothing reads any more; whether it stays."""
    alloc = memref.owner_op
    if alloc is None or alloc not in program.prologue:
        return True
    if alloc.name not in ("memref.alloc", "memref.alloca"):
        return True
    new = values[memref]
    root = ops[_root(s, level)]
    inside = set(root.walk())
    users = [op for op in ops[program.function].walk() if new in op.operands and op not in inside]
    if any(op.name != "memref.dealloc" for op in users):
        return True
    for op in (root, *users, ops[alloc]):
        op.erase()
    return False
