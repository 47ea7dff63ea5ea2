"""Brute-force dependences: run a nest's control structure and record every address touched.

The oracle executes only what decides which elements are touched (loop bounds, steps,
``affine.if`` conditions, subscripts, index arithmetic) and records each dynamic access as
``(access number, common-loop iteration vector, element, is_write, time)``. Dependences then
follow from the definition used by ``mlir-opt -test-memref-dependence-check``:

* accesses are ``affine.load`` / ``affine.store`` numbered in module walk order;
* a dependence from access I to access J is a pair of dynamic instances ``a`` of I and ``b``
  of J touching the same element of the same memref value, ``a`` executed before ``b``, and
  at least one of them a store;
* its depth is ``k + 1`` where ``k`` is the number of leading common loops on which ``a`` and
  ``b`` have equal iteration counts (``n + 1``, "loop independent", when all ``n`` common
  loops agree); its distance is ``iv(b) - iv(a)`` on every common loop.

Elements are compared *after* the memref's layout map, so a layout that is not one-to-one
makes different indices the same element. DMA ops are recorded too (as accesses that are not
numbered): ``dma_start`` reads ``num_elements`` consecutive elements of the source (in
row-major order of its logical index space) and writes the same count into the destination;
it writes the tag element, ``dma_wait`` reads it.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from affine.ir.core import Block, Module, Operation, OpResult, Value
from affine.ir.types import DYNAMIC, IndexType, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.integer_set import IntegerSet

LOOPS = ("affine.for", "affine.parallel")
NUMBERED = ("affine.load", "affine.store")


@dataclass(frozen=True)
class Instance:
    """One dynamic access."""

    access: int  # number in walk order for affine.load/store; -1 for DMA sides
    op: Operation
    loops: tuple[Operation, ...]  # enclosing loops, outermost first, a parallel op once per IV
    ivs: tuple[int, ...]  # one value per entry of ``loops``
    memref: Value
    element: tuple[int, ...]
    is_write: bool
    time: int
    path: tuple[int, ...] = ()  # walk index of each enclosing loop with its IVs, then the op's

    def below(self, loop: Operation) -> tuple[int, ...]:
        """The part of ``path`` inside ``loop`` (its position in the body, inner IVs...)."""
        offset = 0
        seen: list[Operation] = []
        for candidate in self.loops:
            if seen and seen[-1] is candidate:
                continue
            seen.append(candidate)
            count = self.loops.count(candidate)
            if candidate is loop:
                return self.path[offset + 1 + count :]
            offset += 1 + count
        raise ValueError("the instance is not inside the loop")


@dataclass
class Trace:
    instances: list[Instance] = field(default_factory=list)
    numbered: list[Operation] = field(default_factory=list)  # affine.load/store in walk order
    order: dict[Operation, int] = field(default_factory=dict)  # walk index of every op

    def by_element(self) -> dict[tuple[int, tuple[int, ...]], list[Instance]]:
        groups: dict[tuple[int, tuple[int, ...]], list[Instance]] = defaultdict(list)
        for inst in self.instances:
            groups[(id(inst.memref), inst.element)].append(inst)
        return groups


class _Unsupported(Exception):
    pass


class _Tracer:
    def __init__(self, symbols: Mapping[Value, int], max_instances: int) -> None:
        self.env: dict[Value, int] = dict(symbols)
        self.shapes: dict[Value, tuple[int, ...]] = {}
        self.layout_symbols: dict[Value, tuple[int, ...]] = {}
        self.trace = Trace()
        self.time = 0
        self.loops: list[Operation] = []
        self.ivs: list[tuple[int, ...]] = []
        self.numbers: dict[Operation, int] = {}
        self.max_instances = max_instances

    # -- values ---------------------------------------------------------------------------
    def value(self, v: Value) -> int:
        if v in self.env:
            return self.env[v]
        if not isinstance(v, OpResult):
            raise _Unsupported(f"no value bound for block argument {v}")
        op = v.owner
        name = op.name
        if name == "arith.constant":
            result = op.properties["value"].value
        elif name in ("affine.apply", "affine.min", "affine.max"):
            values = self.apply(op.properties["map"].value, op.operands)
            result = (
                values[0]
                if name == "affine.apply"
                else (min if name == "affine.min" else max)(values)
            )
        elif name == "arith.addi":
            result = self.value(op.operands[0]) + self.value(op.operands[1])
        elif name == "arith.subi":
            result = self.value(op.operands[0]) - self.value(op.operands[1])
        elif name == "arith.muli":
            result = self.value(op.operands[0]) * self.value(op.operands[1])
        elif name == "arith.index_cast":
            result = self.value(op.operands[0])
        elif name == "memref.dim":
            result = self.shape(op.operands[0])[self.value(op.operands[1])]
        else:
            raise _Unsupported(f"cannot evaluate {name}")
        return result  # not cached: it may depend on loop IVs

    def apply(self, m: AffineMap, operands: list[Value]) -> tuple[int, ...]:
        values = [self.value(o) for o in operands]
        return tuple(m.evaluate(values[: m.num_dims], values[m.num_dims :]))

    def shape(self, memref: Value) -> tuple[int, ...]:
        if memref in self.shapes:
            return self.shapes[memref]
        t = memref.type
        assert isinstance(t, MemRefType)
        if any(s == DYNAMIC for s in t.shape):
            raise _Unsupported(f"dynamic shape of {memref} not bound")
        return tuple(t.shape)

    def element(self, memref: Value, index: tuple[int, ...]) -> tuple[int, ...]:
        """The element an index names: the layout map's value (identity layout: the index)."""
        t = memref.type
        assert isinstance(t, MemRefType)
        if not t.layout:
            return index
        m = t.layout_map()
        if m is None:
            raise _Unsupported(f"layout of {t} is not an affine map")
        return tuple(m.evaluate(index, self.layout_symbols.get(memref, ())))

    # -- execution --------------------------------------------------------------------------
    def record(self, op: Operation, memref: Value, index: tuple[int, ...], is_write: bool) -> None:
        if len(self.trace.instances) >= self.max_instances:
            raise _Unsupported("too many dynamic accesses for brute force")
        flat_ivs = tuple(i for group in self.ivs for i in group)
        flat_loops = tuple(loop for loop, group in zip(self.loops, self.ivs) for _ in group)
        order = self.trace.order
        path = tuple(
            x for loop, group in zip(self.loops, self.ivs) for x in (order[loop], *group)
        ) + (order[op],)
        self.trace.instances.append(
            Instance(
                self.numbers.get(op, -1),
                op,
                flat_loops,
                flat_ivs,
                memref,
                self.element(memref, index),
                is_write,
                self.time,
                path,
            )
        )
        self.time += 1

    def block(self, block: Block) -> None:
        for op in block.operations:
            self.operation(op)

    def operation(self, op: Operation) -> None:
        name = op.name
        if name == "affine.for":
            self.for_loop(op)
        elif name == "affine.parallel":
            self.parallel_loop(op)
        elif name == "affine.if":
            cond: IntegerSet = op.properties["condition"].value
            values = [self.value(o) for o in op.operands]
            taken = cond.contains(values[: cond.num_dims], values[cond.num_dims :])
            region = op.regions[0] if taken else op.regions[1]
            if region.blocks:
                self.block(region.blocks[0])
        elif name in NUMBERED:
            memref = op.operands[0] if name == "affine.load" else op.operands[1]
            index_operands = op.operands[1:] if name == "affine.load" else op.operands[2:]
            index = self.apply(op.properties["map"].value, index_operands)
            self.record(op, memref, index, name == "affine.store")
        elif name in ("memref.alloc", "memref.alloca"):
            t = op.results[0].type
            dynamic = [
                self.value(v) for v in op.operands[: op.properties["operandSegmentSizes"].values[0]]
            ]
            shape = tuple(dynamic.pop(0) if s == DYNAMIC else s for s in t.shape)
            self.shapes[op.results[0]] = shape
            symbols = op.operands[
                len(op.operands) - op.properties["operandSegmentSizes"].values[1] :
            ]
            self.layout_symbols[op.results[0]] = tuple(self.value(v) for v in symbols)
        elif name == "affine.dma_start":
            self.dma_start(op)
        elif name == "affine.dma_wait":
            m = op.get_attr("tag_map").value
            tag = op.operands[0]
            index = self.apply(m, op.operands[1 : 1 + m.num_inputs])
            self.record(op, tag, index, False)
        elif name in ("func.func", "builtin.module"):
            for region in op.regions:
                for block in region.blocks:
                    self.block(block)

    def for_loop(self, op: Operation) -> None:
        lb_map: AffineMap = op.properties["lowerBoundMap"].value
        ub_map: AffineMap = op.properties["upperBoundMap"].value
        sizes = op.properties["operandSegmentSizes"].values
        lb_ops = op.operands[: sizes[0]]
        ub_ops = op.operands[sizes[0] : sizes[0] + sizes[1]]
        lb = max(self.apply(lb_map, lb_ops))
        ub = min(self.apply(ub_map, ub_ops))
        step = op.properties["step"].value
        body = op.regions[0].blocks[0]
        iv = body.arguments[0]
        self.loops.append(op)
        for i in range(lb, ub, step):
            self.env[iv] = i
            self.ivs.append((i,))
            self.block(body)
            self.ivs.pop()
        self.loops.pop()

    def parallel_loop(self, op: Operation) -> None:
        from affine.dialects.affine_dialect import ParallelOp

        p = ParallelOp(op)
        lbs = self.apply(p.lower_bounds_map, p.lower_bounds_operands)
        ubs = self.apply(p.upper_bounds_map, p.upper_bounds_operands)
        lows, highs, pos = [], [], 0
        for g in p.lower_bounds_groups:
            lows.append(max(lbs[pos : pos + g]))
            pos += g
        pos = 0
        for g in p.upper_bounds_groups:
            highs.append(min(ubs[pos : pos + g]))
            pos += g
        steps = list(p.steps)
        body = op.regions[0].blocks[0]
        self.loops.append(op)

        def nest(k: int, point: list[int]) -> Iterator[tuple[int, ...]]:
            if k == len(lows):
                yield tuple(point)
                return
            for i in range(lows[k], highs[k], steps[k]):
                yield from nest(k + 1, [*point, i])

        for point in nest(0, []):
            for arg, i in zip(body.arguments, point):
                self.env[arg] = i
            self.ivs.append(point)
            self.block(body)
            self.ivs.pop()
        self.loops.pop()

    def dma_start(self, op: Operation) -> None:
        from affine.dialects.affine_dialect import DmaStartOp

        dma = DmaStartOp(op)
        count = self.value(dma.num_elements)
        for memref, m, operands, is_write in (
            (dma.src, dma.src_map, dma.src_indices, False),
            (dma.dst, dma.dst_map, dma.dst_indices, True),
        ):
            start = self.apply(m, operands)
            shape = self.shape(memref)
            linear = 0
            for i, s in zip(start, shape):
                linear = linear * s + i
            for offset in range(count):
                rest, index = linear + offset, []
                for s in reversed(shape):
                    index.append(rest % s)
                    rest //= s
                self.record(op, memref, tuple(reversed(index)), is_write)
        self.record(op, dma.tag, self.apply(dma.tag_map, dma.tag_indices), True)


def trace(
    module: Module, symbols: Mapping[Value, int] | None = None, max_instances: int = 200_000
) -> Trace:
    """Run ``module``'s affine control structure; ``symbols`` binds function arguments."""
    tracer = _Tracer(symbols or {}, max_instances)
    tracer.trace.order = {op: k for k, op in enumerate(module.operation.walk())}
    for op in module.operation.walk():
        if op.name in NUMBERED:
            tracer.numbers[op] = len(tracer.trace.numbered)
            tracer.trace.numbered.append(op)
    try:
        tracer.operation(module.operation)
    except _Unsupported as e:
        raise ValueError(f"brute-force oracle cannot run this input: {e}") from e
    return tracer.trace


def common_loops(a: Operation, b: Operation) -> int:
    """Number of loop IVs around both ops (an affine.parallel counts once per IV)."""
    return sum(
        len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1
        for loop in _common(a, b)
    )


def _enclosing(op: Operation) -> list[Operation]:
    loops = []
    parent = op.parent_op
    while parent is not None:
        if parent.name in LOOPS:
            loops.append(parent)
        parent = parent.parent_op
    return loops[::-1]


def _common(a: Operation, b: Operation) -> list[Operation]:
    common = []
    for x, y in zip(_enclosing(a), _enclosing(b)):
        if x is not y:
            break
        common.append(x)
    return common


@dataclass
class PairResult:
    """What the oracle found for accesses (I, J) at one depth: per common loop, the least
    and greatest distance over all dependent instance pairs."""

    lows: np.ndarray
    highs: np.ndarray

    def bounds(self) -> list[tuple[int, int]]:
        return [(int(lo), int(hi)) for lo, hi in zip(self.lows, self.highs)]

    def merge(self, lows: np.ndarray, highs: np.ndarray) -> None:
        self.lows = np.minimum(self.lows, lows)
        self.highs = np.maximum(self.highs, highs)


def memory_dependences(tr: Trace) -> dict[tuple[int, int, int], PairResult]:
    """``(I, J, depth) -> distance bounds`` for every numbered pair that has a dependence.

    Per element, the instances of each access form arrays (time, IVs); every (earlier
    instance of I, later instance of J) pair is examined with numpy, a block of I's
    instances at a time.
    """
    found: dict[tuple[int, int, int], PairResult] = {}
    for group in tr.by_element().values():
        by_access: dict[int, list[Instance]] = defaultdict(list)
        for inst in group:
            if inst.access >= 0:
                by_access[inst.access].append(inst)
        arrays = {
            k: (
                np.array([x.time for x in v], dtype=np.int64),
                np.array([x.ivs for x in v], dtype=np.int64).reshape(len(v), -1),
                v[0],
            )
            for k, v in by_access.items()
        }
        for i, (times_i, ivs_i, first_i) in arrays.items():
            for j, (times_j, ivs_j, first_j) in arrays.items():
                if not (first_i.is_write or first_j.is_write):
                    continue
                _pair_bounds(
                    found, i, j, _flat_common(first_i, first_j), times_i, ivs_i, times_j, ivs_j
                )
    return found


def _pair_bounds(
    found: dict[tuple[int, int, int], PairResult],
    i: int,
    j: int,
    n: int,
    times_i: np.ndarray,
    ivs_i: np.ndarray,
    times_j: np.ndarray,
    ivs_j: np.ndarray,
) -> None:
    block = max(1, 400_000 // max(1, len(times_j)))
    for start in range(0, len(times_i), block):
        t_i = times_i[start : start + block]
        before = t_i[:, None] < times_j[None, :]
        if not before.any():
            continue
        diffs = (ivs_j[None, :, :n] - ivs_i[start : start + block, None, :n])[before]
        if n == 0:
            depth = np.ones(len(diffs), dtype=np.int64)
        else:
            nonzero = diffs != 0
            depth = np.where(nonzero.any(axis=1), nonzero.argmax(axis=1) + 1, n + 1)
        for d in np.unique(depth):
            rows = diffs[depth == d]
            lows, highs = rows.min(axis=0), rows.max(axis=0)
            key = (i, j, int(d))
            if key in found:
                found[key].merge(lows, highs)
            else:
                found[key] = PairResult(lows, highs)


def _flat_common(a: Instance, b: Instance) -> int:
    n = 0
    for x, y in zip(a.loops, b.loops):
        if x is not y:
            break
        n += 1
    return n


def remark_text(result: PairResult | None, depth: int, num_common: int) -> str:
    """What mlir-opt would print if it were exact: ``false``, ``true`` or the intervals."""
    if result is None:
        return "false"
    if depth > num_common:
        return "true"
    return "".join(f"[{lo}, {hi}]" for lo, hi in result.bounds())


def expected_remarks(tr: Trace) -> Iterator[tuple[int, int, int, str]]:
    """``(I, J, depth, text)`` for every ordered pair and depth, as an exact analysis prints."""
    found = memory_dependences(tr)
    ops = tr.numbered
    for i, a in enumerate(ops):
        for j, b in enumerate(ops):
            n = common_loops(a, b)
            for depth in range(1, n + 2):
                yield i, j, depth, remark_text(found.get((i, j, depth)), depth, n)


def flow_dependences(tr: Trace) -> dict[tuple[int, int, int], PairResult]:
    """Value-based RAW: ``(W, R, depth) -> distance bounds`` from each read instance to the
    last write of its element before it (numbered accesses only; DMA writes kill too)."""
    found: dict[tuple[int, int, int], PairResult] = {}
    for group in tr.by_element().values():
        last: Instance | None = None
        for inst in group:
            if inst.is_write:
                last = inst
                continue
            if last is None or last.access < 0 or inst.access < 0:
                continue
            n = _flat_common(last, inst)
            diffs = np.array([inst.ivs[k] - last.ivs[k] for k in range(n)], dtype=np.int64)
            nonzero = np.flatnonzero(diffs)
            depth = int(nonzero[0]) + 1 if len(nonzero) else n + 1
            key = (last.access, inst.access, depth)
            if key in found:
                found[key].merge(diffs, diffs)
            else:
                found[key] = PairResult(diffs, diffs)
    return found


def index_arguments(module: Module, text: str) -> dict[Value, int]:
    """``// oracle-args: 7 5`` binds the index arguments of each function, in order."""
    found = re.search(r"// oracle-args: (.*)", text)
    if not found:
        return {}
    values = [int(x) for x in found.group(1).split()]
    bindings: dict[Value, int] = {}
    for op in module.operation.walk():
        if op.name == "func.func":
            args = [a for a in op.regions[0].blocks[0].arguments if isinstance(a.type, IndexType)]
            bindings.update(zip(args, values))
    return bindings


@functools.cache
def traced_file(path: str) -> tuple[Module, dict[Value, int], Trace | str]:
    """A corpus file parsed, its ``oracle-args`` bound, and its trace (or why there is none);
    cached, as several tests compare against the same brute-force run."""
    from affine import parse

    text = Path(path).read_text(encoding="utf-8")
    module = parse(text, path)
    bindings = index_arguments(module, text)
    try:
        return module, bindings, trace(module, bindings, max_instances=150_000)
    except ValueError as e:
        return module, bindings, str(e)


def dependent_pairs(tr: Trace, limit: int = 2_000_000) -> Iterator[tuple[Instance, Instance]]:
    """Every pair (earlier, later) of instances touching the same element, one writing
    (all accesses, DMA included)."""
    count = 0
    for group in tr.by_element().values():
        for bi, b in enumerate(group):
            for a in group[:bi]:
                if a.is_write or b.is_write:
                    count += 1
                    if count > limit:
                        raise ValueError("too many dependent pairs for brute force")
                    yield a, b


def loop_distances(a: Instance, b: Instance, loops: Sequence[Operation]) -> tuple[int, ...] | None:
    """``iv(b) - iv(a)`` on ``loops`` (consecutive loops around both instances) when the
    pair agrees on every loop outside them; None otherwise."""
    common = 0
    for x, y in zip(a.loops, b.loops):
        if x is not y:
            break
        common += 1
    try:
        start = a.loops.index(loops[0])
    except ValueError:
        return None
    if start + len(loops) > common or any(
        a.loops[start + k] is not loop for k, loop in enumerate(loops)
    ):
        return None
    if any(a.ivs[k] != b.ivs[k] for k in range(start)):
        return None
    return tuple(b.ivs[start + k] - a.ivs[start + k] for k in range(len(loops)))


def access_multiset(module: Module, symbols: Mapping[Value, int] | None = None) -> Counter:
    """How many times each (argument position, element, read/write) is touched: equal for
    two versions of a function exactly when they run the same accesses (any order)."""
    tr = trace(module, symbols)
    arguments: dict[Value, int] = {}
    for op in module.operation.walk():
        if op.name == "func.func":
            for k, arg in enumerate(op.regions[0].blocks[0].arguments):
                arguments[arg] = k
    return Counter(
        (arguments.get(inst.memref, -1), inst.element, inst.is_write) for inst in tr.instances
    )
