"""Brute-force dependences: run a nest's control structure and record, for every access, which
element of which buffer it touches.

The oracle executes only what decides which elements are touched (loop bounds, steps,
``affine.if`` conditions, subscripts, index arithmetic, the views between an access and its
buffer) and records each dynamic access as an :class:`Instance`. Dependences then follow from
the definition used by ``mlir-opt -test-memref-dependence-check``:

* accesses are ``affine.load`` / ``affine.store`` numbered in module walk order;
* a dependence from access I to access J is a pair of dynamic instances ``a`` of I and ``b``
  of J touching the same element of the same buffer, ``a`` executed before ``b``, and at
  least one of them a store;
* its depth is ``k + 1`` where ``k`` is the number of leading common loops on which ``a`` and
  ``b`` are in the same iteration (``n + 1``, "loop independent", when all ``n`` common
  loops agree); its distance is ``iv(b) - iv(a)`` on every common loop.

Memory is followed concretely, by rules of its own (not through the polyhedral model of
``poly/model.py``):

* a *buffer* is one function argument, one global (``memref.get_global`` of the same symbol
  in one function run), or one *execution* of ``memref.alloc`` / ``alloca`` (an allocation
  in a loop is a new buffer in every iteration); distinct arguments do not alias;
* a memref value is a descriptor of a buffer: a strided one (the aligned pointer's byte
  offset in the buffer, an offset and strides in elements, the element width in bytes), so
  that ``memref.cast``, ``subview``, ``reinterpret_cast``, ``view``, ``expand_shape``,
  ``collapse_shape``, ``transpose`` and ``reshape`` give the byte positions they see; or,
  for layouts that are not strided (and identity layouts of unknown size), the value of the
  layout map, which tells elements of that buffer apart;
* two accesses meet when they share a byte (accesses of one width at aligned positions are
  compared as whole elements).

A loop of step 0 repeats its first iteration forever: the oracle runs it twice (every
later iteration is the same again) and nothing after it in its function. DMA ops are
recorded too (as accesses that are not numbered): ``dma_start`` reads ``num_elements``
consecutive elements of the source (in row-major order of its logical index space) and
writes the same count into the destination; it writes the tag element, ``dma_wait`` reads
it. ``memref.load`` / ``memref.store`` and the lanes of ``vector.transfer_read`` /
``transfer_write`` are recorded unnumbered.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from affine.dialects.common import segments
from affine.ir.core import Block, Module, Operation, OpResult, Value
from affine.ir.types import (
    DYNAMIC,
    ComplexType,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    StridedLayout,
    Type,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.integer_set import IntegerSet

LOOPS = ("affine.for", "affine.parallel")
NUMBERED = ("affine.load", "affine.store")
ZERO_STEP_RUNS = 2  # iterations of a step-0 loop run before the oracle stops its function


@dataclass(frozen=True, eq=False)
class Buffer:
    """One allocation (compared by identity): an argument, a global or an alloc's run."""

    label: str
    argument: int | None = None  # position among the function's arguments


@dataclass(frozen=True)
class Strided:
    """A memref seeing byte ``base + (offset + sum(i_k * strides[k])) * width`` of
    ``buffer`` at logical index ``i``."""

    buffer: Buffer
    sizes: tuple[int | None, ...]
    width: int
    base: int
    offset: int
    strides: tuple[int, ...]

    def location(self, index: Sequence[int]) -> int:
        return self.base + (self.offset + sum(i * s for i, s in zip(index, self.strides))) * (
            self.width
        )


@dataclass(frozen=True)
class Indexed:
    """A memref whose elements are told apart by the value of ``layout`` (with ``symbols``
    bound) at their logical index: non-strided layouts, identity layouts of unknown size."""

    buffer: Buffer
    sizes: tuple[int | None, ...]
    layout: AffineMap
    symbols: tuple[int, ...]

    def location(self, index: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.layout.evaluate(list(index), list(self.symbols)))


Descriptor = Strided | Indexed


@dataclass(frozen=True)
class Instance:
    """One dynamic access: ``element`` is the byte it starts at (``width`` bytes) for a
    strided buffer, the layout map's value (``width`` 0) otherwise."""

    access: int  # number in walk order for affine.load/store; -1 for other accesses
    op: Operation
    loops: tuple[Operation, ...]  # enclosing loops, outermost first, a parallel op once per IV
    ivs: tuple[int, ...]  # one value per entry of ``loops``
    memref: Value
    element: Hashable
    is_write: bool
    time: int
    path: tuple[int, ...]  # walk index of each enclosing loop with its IVs, then the op's
    buffer: Buffer
    width: int
    iterations: tuple[int, ...]  # iteration number on each entry of ``loops``

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

    def by_element(self) -> dict[tuple[Buffer, Hashable], list[Instance]]:
        """Instances grouped by the element they touch, in execution order. A strided
        buffer whose accesses all have one width at aligned positions is compared element
        by element, any other byte by byte (an instance then joins a group per byte)."""
        widths: dict[Buffer, set[int]] = defaultdict(set)
        for inst in self.instances:
            if inst.width:
                widths[inst.buffer].add(inst.width if inst.element % inst.width == 0 else -1)
        groups: dict[tuple[Buffer, Hashable], list[Instance]] = defaultdict(list)
        for inst in self.instances:
            if not inst.width:
                groups[(inst.buffer, inst.element)].append(inst)
            elif widths[inst.buffer] == {inst.width}:
                groups[(inst.buffer, inst.element // inst.width)].append(inst)
            else:
                for byte in range(inst.element, inst.element + inst.width):
                    groups[(inst.buffer, ("byte", byte))].append(inst)
        return groups


class _Unsupported(Exception):
    pass


class _Stopped(Exception):
    """A loop of step 0 was entered: its function never gets further."""


def byte_width(t: Type) -> int:
    """Bytes an element of type ``t`` occupies (its bit width rounded up to whole bytes)."""
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, (IntegerType, FloatType)):
        return max(1, -(-t.width // 8))
    if isinstance(t, ComplexType):
        return 2 * byte_width(t.element_type)
    if isinstance(t, VectorType):
        count = 1
        for s in t.shape:
            count *= s
        return count * byte_width(t.element_type)
    raise _Unsupported(f"no byte width for elements of type {t}")


def row_major(sizes: Sequence[int]) -> tuple[int, ...]:
    strides, running = [], 1
    for s in reversed(sizes):
        strides.append(running)
        running *= s
    return tuple(reversed(strides))


def _static_list(op: Operation, name: str, dynamic: Iterator[int]) -> list[int]:
    """A static list property with its ``?`` entries taken from ``dynamic`` in order."""
    values = op.properties[name].values
    return [next(dynamic) if v == DYNAMIC else v for v in values]


def _groups(op: Operation) -> list[list[int]]:
    """The ``reassociation`` of an expand_shape / collapse_shape."""
    return [[x.value for x in g.elements] for g in op.properties["reassociation"].elements]


class _Tracer:
    def __init__(self, symbols: Mapping[Value, int], max_instances: int) -> None:
        self.env: dict[Value, int] = dict(symbols)
        self.memory: dict[Value, Descriptor] = {}
        self.globals: dict[str, Buffer] = {}
        self.trace = Trace()
        self.time = 0
        self.loops: list[Operation] = []
        self.ivs: list[tuple[int, ...]] = []
        self.iterations: list[tuple[int, ...]] = []
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
        elif name == "affine.delinearize_index":
            # digits of the index in the basis, last first; the first result takes the rest
            dynamic = (self.value(b) for b in op.operands[1:])
            basis = _static_list(op, "static_basis", dynamic)
            rest, digits = self.value(op.operands[0]), []
            for b in reversed(basis[len(basis) - len(op.results) + 1 :]):
                rest, digit = divmod(rest, b)
                digits.append(digit)
            result = [rest, *reversed(digits)][v.index]
        elif name == "affine.linearize_index":
            indices = segments(op, 0)
            dynamic = (self.value(b) for b in segments(op, 1))
            basis = _static_list(op, "static_basis", dynamic)
            result = 0  # Horner over the basis padded to one element per index
            for index, b in zip(indices, [1, *basis][-len(indices) :]):
                result = result * b + self.value(index)
        else:
            raise _Unsupported(f"cannot evaluate {name}")
        return result  # not cached: it may depend on loop IVs

    def apply(self, m: AffineMap, operands: Sequence[Value]) -> tuple[int, ...]:
        values = [self.value(o) for o in operands]
        return tuple(m.evaluate(values[: m.num_dims], values[m.num_dims :]))

    def descriptor(self, memref: Value) -> Descriptor:
        if memref not in self.memory:
            raise _Unsupported(f"no buffer known for {memref}")
        return self.memory[memref]

    def strided(self, memref: Value, what: str) -> Strided:
        d = self.descriptor(memref)
        if not isinstance(d, Strided):
            raise _Unsupported(f"{what} of a memref whose layout is not strided")
        return d

    def shape(self, memref: Value) -> tuple[int, ...]:
        sizes = self.descriptor(memref).sizes
        if any(s is None for s in sizes):
            raise _Unsupported(f"dynamic shape of {memref} not bound")
        return tuple(s for s in sizes if s is not None)

    # -- buffers and views ----------------------------------------------------------------
    def new_memref(
        self,
        buffer: Buffer,
        t: MemRefType,
        sizes: Sequence[int | None],
        symbols: Sequence[int] = (),
    ) -> Descriptor:
        """A descriptor of a whole buffer of type ``t``."""
        sizes = tuple(sizes)
        layout = t.layout
        if isinstance(layout, StridedLayout):
            if DYNAMIC not in layout.strides and layout.offset != DYNAMIC:
                width = byte_width(t.element_type)
                return Strided(buffer, sizes, width, 0, layout.offset, layout.strides)
            # a caller's strides: only known to be one-to-one, as the analysis assumes
            return Indexed(buffer, sizes, AffineMap.identity(len(sizes)), ())
        m = t.layout_map()
        if m.is_identity():
            if None in sizes:
                return Indexed(buffer, sizes, m, ())
            known = tuple(s for s in sizes if s is not None)
            return Strided(buffer, sizes, byte_width(t.element_type), 0, 0, row_major(known))
        if m.num_symbols != len(symbols):
            raise _Unsupported(f"layout symbols of {t} not bound")
        return Indexed(buffer, sizes, m, tuple(symbols))

    def view(self, op: Operation) -> None:
        """Bind the result of a view op to the elements of its source's buffer it sees."""
        name = op.name
        source = self.descriptor(op.operands[0])
        result = op.results[0]
        t = result.type
        if not isinstance(t, MemRefType):
            raise _Unsupported(f"'{name}' to {t}")
        if name in ("memref.cast", "memref.memory_space_cast", "memref.assume_alignment"):
            self.memory[result] = source  # only the static type changes
            return
        s = self.strided(op.operands[0], f"'{name}'")
        if name == "memref.subview":
            self.memory[result] = self.subview(op, s, t)
        elif name == "memref.reinterpret_cast":
            dynamic = iter([self.value(v) for v in op.operands[1:]])
            (offset,) = _static_list(op, "static_offsets", dynamic)
            sizes = _static_list(op, "static_sizes", dynamic)
            strides = _static_list(op, "static_strides", dynamic)
            self.memory[result] = replace(
                s, sizes=tuple(sizes), offset=offset, strides=tuple(strides)
            )
        elif name == "memref.view":
            # byte shift from the source's first element; a contiguous row-major result
            if s.width != 1 or s.strides != (1,):
                raise _Unsupported("'memref.view' of a memref that is not contiguous bytes")
            shift = self.value(op.operands[1])
            dynamic = iter([self.value(v) for v in op.operands[2:]])
            sizes = tuple(next(dynamic) if x == DYNAMIC else x for x in t.shape)
            self.memory[result] = Strided(
                s.buffer,
                sizes,
                byte_width(t.element_type),
                s.base + s.offset + shift,
                0,
                row_major(sizes),
            )
        elif name == "memref.collapse_shape":
            known = self.shape(op.operands[0])
            sizes, strides = [], []
            for group in _groups(op):
                size, stride = 1, s.strides[group[-1]]
                for d in group:
                    size *= known[d]
                inner = [d for d in group if known[d] != 1]
                for outer, nxt in itertools.pairwise(inner):
                    if s.strides[outer] != s.strides[nxt] * known[nxt]:
                        raise _Unsupported("'memref.collapse_shape' of a non-contiguous group")
                if inner:
                    stride = s.strides[inner[-1]]
                sizes.append(size)
                strides.append(stride)
            self.memory[result] = replace(s, sizes=tuple(sizes), strides=tuple(strides))
        elif name == "memref.expand_shape":
            dynamic = iter([self.value(v) for v in op.operands[1:]])
            out = _static_list(op, "static_output_shape", dynamic)
            strides = [0] * len(out)
            for d, group in enumerate(_groups(op)):
                running = s.strides[d]
                for k in reversed(group):
                    strides[k] = running
                    running *= out[k]
            self.memory[result] = replace(s, sizes=tuple(out), strides=tuple(strides))
        elif name == "memref.transpose":
            perm = [r.value for r in op.properties["permutation"].value.results]
            self.memory[result] = replace(
                s,
                sizes=tuple(s.sizes[p] for p in perm),
                strides=tuple(s.strides[p] for p in perm),
            )
        elif name == "memref.reshape":
            if s.strides != row_major(self.shape(op.operands[0])) or DYNAMIC in t.shape:
                raise _Unsupported("'memref.reshape' to sizes held in memory")
            self.memory[result] = replace(s, sizes=tuple(t.shape), strides=row_major(t.shape))
        else:
            raise _Unsupported(f"cannot follow '{name}'")

    def subview(self, op: Operation, s: Strided, t: MemRefType) -> Strided:
        dynamic = iter([self.value(v) for v in op.operands[1:]])
        offsets = _static_list(op, "static_offsets", dynamic)
        sizes = _static_list(op, "static_sizes", dynamic)
        steps = _static_list(op, "static_strides", dynamic)
        offset = s.offset + sum(o * st for o, st in zip(offsets, s.strides))
        strides = [st * step for st, step in zip(s.strides, steps)]
        kept = list(range(len(sizes)))
        if len(t.shape) < len(sizes):  # rank-reducing: drop unit dims the result lacks
            kept, k = [], 0
            for d, size in enumerate(sizes):
                if k < len(t.shape) and t.shape[k] in (size, DYNAMIC):
                    kept.append(d)
                    k += 1
                elif size != 1:
                    raise _Unsupported("rank reduction of a dimension that is not 1")
        return replace(
            s,
            sizes=tuple(sizes[d] for d in kept),
            offset=offset,
            strides=tuple(strides[d] for d in kept),
        )

    # -- execution --------------------------------------------------------------------------
    def record(self, op: Operation, memref: Value, index: tuple[int, ...], is_write: bool) -> None:
        if len(self.trace.instances) >= self.max_instances:
            raise _Unsupported("too many dynamic accesses for brute force")
        d = self.descriptor(memref)
        flat_ivs = tuple(i for group in self.ivs for i in group)
        flat_iterations = tuple(i for group in self.iterations for i in group)
        flat_loops = tuple(loop for loop, group in zip(self.loops, self.ivs) for _ in group)
        order = self.trace.order
        path = tuple(
            x for loop, group in zip(self.loops, self.ivs) for x in (order[loop], *group)
        ) + (order[op],)
        t = memref.type
        assert isinstance(t, MemRefType)
        self.trace.instances.append(
            Instance(
                self.numbers.get(op, -1),
                op,
                flat_loops,
                flat_ivs,
                memref,
                d.location(index),
                is_write,
                self.time,
                path,
                d.buffer,
                d.width if isinstance(d, Strided) else 0,
                flat_iterations,
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
        elif name in ("memref.load", "memref.store"):
            first = 1 if name == "memref.load" else 2
            index = tuple(self.value(v) for v in op.operands[first:])
            self.record(op, op.operands[first - 1], index, name == "memref.store")
        elif name in ("memref.alloc", "memref.alloca"):
            t = op.results[0].type
            assert isinstance(t, MemRefType)
            dynamic = iter([self.value(v) for v in segments(op, 0)])
            sizes = [next(dynamic) if s == DYNAMIC else s for s in t.shape]
            symbols = [self.value(v) for v in segments(op, 1)]
            buffer = Buffer(f"{name} at {op.loc}")
            self.memory[op.results[0]] = self.new_memref(buffer, t, sizes, symbols)
        elif name == "memref.get_global":
            t = op.results[0].type
            assert isinstance(t, MemRefType)
            symbol = str(op.properties["name"])
            buffer = self.globals.setdefault(symbol, Buffer(f"global {symbol}"))
            self.memory[op.results[0]] = self.new_memref(buffer, t, t.shape)
        elif name.startswith("memref.") and op.results and name not in ("memref.dim",):
            if isinstance(op.results[0].type, MemRefType):
                self.view(op)
        elif name in ("vector.transfer_read", "vector.transfer_write"):
            self.transfer(op)
        elif name == "affine.dma_start":
            self.dma_start(op)
        elif name == "affine.dma_wait":
            m = op.get_attr("tag_map").value
            tag = op.operands[0]
            index = self.apply(m, op.operands[1 : 1 + m.num_inputs])
            self.record(op, tag, index, False)
        elif name == "func.func":
            self.function(op)
        elif name == "builtin.module":
            for region in op.regions:
                for block in region.blocks:
                    self.block(block)

    def function(self, op: Operation) -> None:
        """One run of a function: fresh buffers for its arguments and globals."""
        if not op.regions[0].blocks:
            return
        self.globals = {}
        for k, arg in enumerate(op.regions[0].blocks[0].arguments):
            t = arg.type
            if isinstance(t, MemRefType):
                sizes = [None if s == DYNAMIC else s for s in t.shape]
                self.memory[arg] = self.new_memref(Buffer(f"argument {k}", k), t, sizes)
        try:
            self.block(op.regions[0].blocks[0])
        except _Stopped:
            self.loops.clear()
            self.ivs.clear()
            self.iterations.clear()

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
        values = range(lb, ub, step) if step else [lb] * ZERO_STEP_RUNS if lb < ub else []
        self.loops.append(op)
        for count, i in enumerate(values):
            self.env[iv] = i
            self.ivs.append((i,))
            self.iterations.append((count,))
            self.block(body)
            self.ivs.pop()
            self.iterations.pop()
        self.loops.pop()
        if not step and values:
            raise _Stopped

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
            self.iterations.append(tuple((i - lo) // st for i, lo, st in zip(point, lows, steps)))
            self.block(body)
            self.ivs.pop()
            self.iterations.pop()
        self.loops.pop()

    def transfer(self, op: Operation) -> None:
        """Every lane of a ``vector.transfer_read``/``write`` inside the memref (lanes past
        a dimension not marked ``in_bounds`` are not accessed)."""
        from affine.dialects.vector import (
            in_bounds,
            transfer_dims,
            transfer_parts,
            transfer_vector_type,
        )

        memref, indices, _, mask = transfer_parts(op)
        if mask is not None:
            raise _Unsupported("a masked transfer")
        start = [self.value(v) for v in indices]
        shape = self.shape(memref)
        vector = transfer_vector_type(op)
        dims = transfer_dims(op)
        for lane in itertools.product(*(range(n) for n in vector.shape)):
            index = list(start)
            for d, offset in zip(dims, lane):
                if d is not None:
                    index[d] += offset
            if all(0 <= i < n for i, n in zip(index, shape)):
                self.record(op, memref, tuple(index), op.name == "vector.transfer_write")
            elif all(inside for d, inside in zip(dims, in_bounds(op)) if d is not None):
                raise _Unsupported("a transfer out of bounds")

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

    Per element, the instances of each access form arrays (time, iterations, IVs); every
    (earlier instance of I, later instance of J) pair is examined with numpy, a block of
    I's instances at a time.
    """
    found: dict[tuple[int, int, int], PairResult] = {}
    for group in tr.by_element().values():
        by_access: dict[int, list[Instance]] = defaultdict(list)
        for inst in group:
            if inst.access >= 0:
                by_access[inst.access].append(inst)
        arrays = {k: _arrays(v) for k, v in by_access.items()}
        for i, first_i in arrays.items():
            for j, first_j in arrays.items():
                if first_i[3].is_write or first_j[3].is_write:
                    _pair_bounds(
                        found, i, j, _flat_common(first_i[3], first_j[3]), first_i, first_j
                    )
    return found


_Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, Instance]


def _arrays(instances: list[Instance]) -> _Arrays:
    """Times, iteration numbers and IVs of ``instances`` as arrays, and the first one."""
    n = len(instances)
    return (
        np.array([x.time for x in instances], dtype=np.int64),
        np.array([x.iterations for x in instances], dtype=np.int64).reshape(n, -1),
        np.array([x.ivs for x in instances], dtype=np.int64).reshape(n, -1),
        instances[0],
    )


def _pair_bounds(
    found: dict[tuple[int, int, int], PairResult],
    i: int,
    j: int,
    n: int,
    source: _Arrays,
    target: _Arrays,
) -> None:
    times_i, counts_i, ivs_i, _ = source
    times_j, counts_j, ivs_j, _ = target
    block = max(1, 400_000 // max(1, len(times_j)))
    for start in range(0, len(times_i), block):
        t_i = times_i[start : start + block]
        before = t_i[:, None] < times_j[None, :]
        if not before.any():
            continue
        diffs = (ivs_j[None, :, :n] - ivs_i[start : start + block, None, :n])[before]
        moved = (counts_j[None, :, :n] != counts_i[start : start + block, None, :n])[before]
        if n == 0:
            depth = np.ones(len(diffs), dtype=np.int64)
        else:
            depth = np.where(moved.any(axis=1), moved.argmax(axis=1) + 1, n + 1)
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
    yield from _remarks(tr.numbered, memory_dependences(tr))


def _remarks(
    ops: Sequence[Operation], found: Mapping[tuple[int, int, int], PairResult]
) -> Iterator[tuple[int, int, int, str]]:
    for i, a in enumerate(ops):
        for j, b in enumerate(ops):
            n = common_loops(a, b)
            for depth in range(1, n + 2):
                yield i, j, depth, remark_text(found.get((i, j, depth)), depth, n)


def remarks_over_values(
    module: Module, runs: Sequence[Mapping[Value, int]]
) -> dict[tuple[int, int, int], str]:
    """The exact remarks of a module whose symbols take every binding in ``runs``: a
    dependence exists when it exists in some run, with the hull of the runs' distances."""
    found: dict[tuple[int, int, int], PairResult] = {}
    numbered: list[Operation] = []
    for bindings in runs:
        tr = trace(module, bindings)
        numbered = tr.numbered
        for key, result in memory_dependences(tr).items():
            if key in found:
                found[key].merge(result.lows, result.highs)
            else:
                found[key] = PairResult(result.lows.copy(), result.highs.copy())
    return {(i, j, d): text for i, j, d, text in _remarks(numbered, found)}


def flow_dependences(tr: Trace) -> dict[tuple[int, int, int], PairResult]:
    """Value-based RAW: ``(W, R, depth) -> distance bounds`` from each read instance to the
    last write of its element before it (numbered accesses only; other writes kill too)."""
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
            moved = [k for k in range(n) if inst.iterations[k] != last.iterations[k]]
            depth = moved[0] + 1 if moved else n + 1
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
    return bind_index_arguments(module, [int(x) for x in found.group(1).split()])


def bind_index_arguments(module: Module, values: Sequence[int]) -> dict[Value, int]:
    """The index arguments of each function bound to ``values``, in order."""
    bindings: dict[Value, int] = {}
    for op in module.operation.walk():
        if op.name == "func.func":
            args = [a for a in op.regions[0].blocks[0].arguments if isinstance(a.type, IndexType)]
            bindings.update(zip(args, values))
    return bindings


def index_argument_count(module: Module) -> int:
    """The largest number of index arguments of one function of ``module``."""
    return max(
        (
            sum(isinstance(a.type, IndexType) for a in op.regions[0].blocks[0].arguments)
            for op in module.operation.walk()
            if op.name == "func.func" and op.regions[0].blocks
        ),
        default=0,
    )


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
    pair is in the same iteration of every loop outside them; None otherwise."""
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
    if any(a.iterations[k] != b.iterations[k] for k in range(start)):
        return None
    return tuple(b.ivs[start + k] - a.ivs[start + k] for k in range(len(loops)))


def access_multiset(module: Module, symbols: Mapping[Value, int] | None = None) -> Counter:
    """How many times each (argument position, element, read/write) is touched: equal for
    two versions of a function exactly when they run the same accesses (any order)."""
    tr = trace(module, symbols)
    return Counter(
        (-1 if inst.buffer.argument is None else inst.buffer.argument, inst.element, inst.is_write)
        for inst in tr.instances
    )


def covers(approximate: str, exact: str) -> bool:
    """A sound over-approximation of the remark value ``exact``: anything covers "false",
    "true" only "true", and distance intervals those they contain."""
    if exact == "false":
        return True
    if approximate == exact:
        return True
    outer, inner = _intervals(approximate), _intervals(exact)
    return (
        bool(inner)
        and len(outer) == len(inner)
        and all(a <= c and d <= b for (a, b), (c, d) in zip(outer, inner))
    )


def _intervals(text: str) -> list[tuple[float, float]]:
    """``[a, b][c, d]`` as pairs (``inf`` allowed); empty for "true" and "false"."""
    return [
        (float(lo.replace("inf", "Infinity")), float(hi.replace("inf", "Infinity")))
        for lo, hi in re.findall(r"\[([^,\]]+), ([^\]]+)\]", text)
    ]


def oracle_inputs(module: Module, text: str, seed: int = 0) -> list:
    """Arguments to run the single function of a corpus file with: its ``oracle-args`` for
    the index arguments, random values for the other scalars and random arrays for the
    memrefs, each memref of unknown size as small as the indices the run touches allow."""
    from affine.exec.inputs import random_inputs  # numpy-backed input builder

    (func,) = [op for op in module.operation.walk() if op.name == "func.func"]
    bindings = index_arguments(module, text)
    arguments = func.regions[0].blocks[0].arguments
    extents: dict[int, list[int]] = {}
    for inst in trace(module, bindings).instances:
        k = inst.buffer.argument
        if k is not None and isinstance(inst.element, tuple):
            top = extents.setdefault(k, [0] * len(inst.element))
            extents[k] = [max(a, i + 1) for a, i in zip(top, inst.element)]
    sizes = {
        k: tuple(extents.get(k, [0] * len(a.type.shape)))
        for k, a in enumerate(arguments)
        if isinstance(a.type, MemRefType)
        and not a.type.has_static_shape
        and a.type.has_identity_layout
    }
    values = random_inputs(func, seed, sizes)
    for k, arg in enumerate(arguments):
        if arg in bindings:
            values[k] = bindings[arg]
    return values
