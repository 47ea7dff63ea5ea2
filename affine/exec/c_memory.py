"""C for memory ops: loads and stores through a type's offset map, allocation, views
(cast, subview, reinterpret_cast) and transfers (DMA, copies, checked as the interpreter
checks them).

Invariant: a position is computed by :func:`~affine.exec.memory.offset_map` of the memref's
type, as in the interpreter.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from affine.dialects.affine_dialect import DmaStartOp
from affine.dialects.common import segments
from affine.dialects.memref import MemRefDmaStart
from affine.dialects.vector import in_bounds, transfer_dims, transfer_parts, transfer_vector_type
from affine.exec.c_emitter import CMem, FunctionEmitter, c_op, lane_count
from affine.exec.elements import (
    ElementInfo,
    ExecutionError,
    element_info,
)
from affine.exec.memory import (
    bound_strided_form,
    cast_layout_values,
    is_contiguous_row_major,
    physical_extents,
    static_physical_strides,
    strided_view_values,
    view_operands,
)
from affine.exec.semantics import (
    strided_side_is_source,
    transfer_lanes,
)
from affine.ir.attributes import IntegerAttr
from affine.ir.core import Operation, Value
from affine.ir.diagnostics import Location
from affine.ir.types import DYNAMIC, MemRefType, StridedLayout, Type, VectorType
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr


def memref_element(mem: CMem, loc: Location | None) -> ElementInfo:
    return element_info(mem.type.element_type, loc)


def _load(e: FunctionEmitter, op: Operation, memref: Value, indices: list[str]) -> None:
    """A scalar load, or a vector load lane by lane (each lane at its own position)."""
    mem = e.mem(memref)
    info = memref_element(mem, op.loc)
    with _access_lanes(e, op, mem, indices, op.results[0].type, "load") as lane_indices:
        access = f"{mem.data}[{e.position(mem, lane_indices)}]"
        if info.width == 1 and info.kind == "int":
            access = f"(int8_t)-(int8_t){access}"
        e.define(op.results[0], access, op.loc)


def _store(
    e: FunctionEmitter, op: Operation, value: Value, memref: Value, indices: list[str]
) -> None:
    mem = e.mem(memref)
    info = memref_element(mem, op.loc)
    with _access_lanes(e, op, mem, indices, value.type, "store") as lane_indices:
        v = e.v(value)
        if info.width == 1 and info.kind == "int":
            v = f"(uint8_t)({v} & 1)"
        store = f"{mem.data}[{e.position(mem, lane_indices)}] = {v};"
        if isinstance(value.type, VectorType):
            count = lane_count(value.type)
            store = f"for (int64_t {e.lane} = 0; {e.lane} < {count}; ++{e.lane}) {store}"
        e.line(store)


@contextmanager
def _access_lanes(
    e: FunctionEmitter, op: Operation, mem: CMem, indices: list[str], t: Type, what: str
) -> Iterator[list[str]]:
    """The indices an access touches: ``indices`` for a scalar; for a vector (spanning the
    trailing dims) the indices of the current lane, in lane mode, after checking the first
    and the last lane (in checked mode)."""
    if not isinstance(t, VectorType):
        e.check_bounds(op, mem, indices, what)
        yield indices
        return
    shape = t.shape
    lead = len(indices) - len(shape)
    if lead < 0:
        raise ExecutionError(f"'{op.name}' of '{t}' from the lower-rank '{mem.type}'", op.loc)
    e.check_bounds(op, mem, indices, what)
    last = indices[:lead] + [f"({i} + {n - 1})" for i, n in zip(indices[lead:], shape)]
    e.check_bounds(op, mem, last, what)
    with e.lanes() as lane:
        digits = lane_digits(lane, shape)
        yield indices[:lead] + [f"({i} + {d})" for i, d in zip(indices[lead:], digits)]


def lane_digits(lane: str, shape: Sequence[int]) -> list[str]:
    """C for the index offsets of lane number ``lane`` of a vector of ``shape`` (row-major)."""
    digits = []
    inner = 1
    for k in range(len(shape) - 1, -1, -1):
        digit = lane if inner == 1 else f"({lane} / {inner})"
        digits.append(digit if k == 0 else f"({digit} % {shape[k]})")
        inner *= shape[k]
    return digits[::-1]


def map_indices(
    e: FunctionEmitter, op: Operation, m: AffineMap, operands: Sequence[Value]
) -> list[str]:
    code = e.program.error_code(op, "affine division by a non-positive symbol value")
    return [e.affine(r, operands, m.num_dims, code) for r in m.results]


@c_op("affine.load", "affine.vector_load")
def _c_affine_load(e: FunctionEmitter, op: Operation) -> None:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    _load(e, op, op.operands[0], map_indices(e, op, m, op.operands[1:]))


@c_op("affine.store", "affine.vector_store")
def _c_affine_store(e: FunctionEmitter, op: Operation) -> None:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    _store(e, op, op.operands[0], op.operands[1], map_indices(e, op, m, op.operands[2:]))


@c_op("vector.transfer_read", "vector.transfer_write")
def _c_transfer(e: FunctionEmitter, op: Operation) -> None:
    """Lane by lane, as the interpreter: a lane masked off, or past the size of a dimension
    not marked ``in_bounds``, reads the padding and is not written; other lanes are
    checked against the shape."""
    memref, indices, padding, mask = transfer_parts(op)
    mem = e.mem(memref)
    info = memref_element(mem, op.loc)
    vector = transfer_vector_type(op)
    assert isinstance(vector, VectorType)
    if vector.element_type != mem.type.element_type:
        raise ExecutionError(
            f"'{op.name}' of '{vector}' from '{mem.type}': element types differ", op.loc
        )
    dims = transfer_dims(op)
    rank = len(indices)
    table = transfer_lanes(dims, vector.shape, rank)
    lane = e.fresh("l")
    lanes = e.fresh("lanes")
    rows = ", ".join(
        "{" + ", ".join(str(x) for x in (*deltas, mask_lane)) + "}" for deltas, mask_lane in table
    )
    e.line(f"static const int64_t {lanes}[{len(table)}][{rank + 1}] = {{{rows}}};")
    ys = [f"({e.v(v)} + {lanes}[{lane}][{k}])" for k, v in enumerate(indices)]
    sizes = e.sizes_c(mem)
    skipped = [
        f"{ys[d]} >= {sizes[d]}"
        for d, inside in zip(dims, in_bounds(op))
        if d is not None and not inside
    ]
    if mask is not None:
        skipped.insert(0, f"!{e.v(mask)}.v[{lanes}[{lane}][{rank}]]")
    element = f"{mem.data}[{e.position(mem, ys)}]"
    read = op.name == "vector.transfer_read"
    if read:
        target = e.fresh()
        e.declare_name(target, e.ctype_of(vector, op.loc))
        if info.width == 1 and info.kind == "int":
            element = f"(int8_t)-(int8_t){element}"
        assert padding is not None  # a read has one
        skip, access = f"{target}.v[{lane}] = {e.v(padding)};", f"{target}.v[{lane}] = {element};"
    else:
        stored = f"{e.v(op.operands[0])}.v[{lane}]"
        if info.width == 1 and info.kind == "int":
            stored = f"(uint8_t)({stored} & 1)"
        skip, access = "", f"{element} = {stored};"
    e.line(f"for (int64_t {lane} = 0; {lane} < {lane_count(vector)}; ++{lane}) {{")
    e.depth += 1
    if skipped:
        e.line(f"if ({' || '.join(skipped)}) {{ {skip} }} else {{")
        e.depth += 1
    e.check_bounds(op, mem, ys, "load" if read else "store")
    e.line(access)
    if skipped:
        e.depth -= 1
        e.line("}")
    e.depth -= 1
    e.line("}")
    if read:
        e.names[op.results[0]] = target


@c_op("memref.load")
def _c_memref_load(e: FunctionEmitter, op: Operation) -> None:
    _load(e, op, op.operands[0], [e.v(v) for v in op.operands[1:]])


@c_op("memref.store")
def _c_memref_store(e: FunctionEmitter, op: Operation) -> None:
    _store(e, op, op.operands[0], op.operands[1], [e.v(v) for v in op.operands[2:]])


@c_op("memref.alloc", "memref.alloca")
def _c_alloc(e: FunctionEmitter, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    info = element_info(t.element_type, op.loc)
    dynamic = iter(segments(op, 0))
    sizes: list[Any] = [e.v(next(dynamic)) if s == DYNAMIC else s for s in t.shape]
    symbols: list[Any] = [e.v(v) for v in segments(op, 1)]
    static = static_physical_strides(t)
    pstrides: list[Any]
    offset = ""  # of the data in the allocation, when not 0
    if t.has_identity_layout:
        pstrides = []
        running = "1"
        for k in range(len(sizes) - 1, -1, -1):
            pstrides.insert(0, static[k] if static[k] is not None else running)
            running = f"({running} * {sizes[k]})"
        total = running if sizes else "1"
    elif isinstance(t.layout, StridedLayout):
        pstrides = [1]
        layout = t.layout
        if DYNAMIC in layout.strides or layout.offset == DYNAMIC:
            raise ExecutionError(
                f"cannot allocate '{t}': its layout has '?' entries no operand gives", op.loc
            )
        if any(s < 0 for s in layout.strides) or layout.offset < 0:
            raise ExecutionError(
                f"the C backend cannot allocate '{t}' (negative offset or stride)", op.loc
            )
        extent = " + ".join(f"({s} - 1) * {st}" for s, st in zip(sizes, layout.strides)) or "0"
        nonempty = " && ".join(f"{s} > 0" for s in sizes) or "1"
        total = f"(({nonempty}) ? {layout.offset} + {extent} + 1 : 0)"
    elif any(isinstance(s, str) for s in sizes) or any(
        r.used_symbols() for r in t.layout_map().results
    ):
        pstrides, total, offset = _runtime_extents(e, op, t, sizes, symbols)
    else:
        extents = physical_extents(t, sizes, [0] * len(symbols))
        pstrides = list(static)
        total = str(extents[0] * pstrides[0] if extents else 1)
    e.uses_arena = True
    name = e.fresh("m")
    allocation = f"({info.c} *)pa_alloc(&arena, {total} * (int64_t)sizeof({info.c}))"
    if e.multi_block:
        e.hoisted.append(f"{info.c} *{name};")
        e.line(f"{name} = {allocation};")
    else:
        e.line(f"{info.c} *{name} = {allocation};")
    data = f"({name} + {offset})" if offset else name
    e.mems[op.results[0]] = CMem(t, data, sizes, symbols, pstrides)


def _runtime_extents(
    e: FunctionEmitter, op: Operation, t: MemRefType, sizes: Sequence[Any], symbols: Sequence[Any]
) -> tuple[list[Any], str, str]:
    """Physical strides, element count and the offset of the data in the allocation, for a
    layout whose extents depend on run-time sizes or symbols: each result ranges over an
    interval found as :func:`affine.exec.memory.expr_range` finds it, and its extent covers
    it. A result that can be negative fails the run as in the interpreter; the data then
    starts past the negative positions, so that no access leaves the allocation."""
    m = t.layout_map()
    code = e.program.error_code(op, "affine division by a non-positive symbol value")
    highs = [f"({s} - 1)" for s in sizes]
    nonempty = e.local(" && ".join(f"{s} > 0" for s in sizes) or "1")
    extents: list[str] = []
    shifts: list[str] = []
    for k, r in enumerate(m.results):
        lo, hi = _interval_c(e, r, highs, [str(v) for v in symbols], code)
        negative = e.program.error_code(
            op,
            f"layout map result #{k} of '{t}' takes negative values; positions in a buffer "
            "cannot be negative",
        )
        e.line(f"if ({nonempty} && {lo} < 0) {{ pa_fail({negative}); }}")
        shift = e.local(f"{nonempty} && {lo} < 0 ? -({lo}) : 0")
        extents.append(e.local(f"{nonempty} ? {hi} + {shift} + 1 : 0"))
        shifts.append(shift)
    static = static_physical_strides(t)
    pstrides: list[Any] = []
    stride: Any = 1
    for k in range(len(extents) - 1, -1, -1):
        stride = stride if static[k] is None else static[k]
        pstrides.insert(0, stride)
        stride = f"({stride} * {extents[k]})"
    offset = " + ".join(f"{x} * {p}" for x, p in zip(shifts, pstrides))
    return pstrides, str(stride), offset


def _interval_c(
    e: FunctionEmitter, x: AffineExpr, highs: Sequence[str], symbols: Sequence[str], code: int
) -> tuple[str, str]:
    """C variables holding the least and greatest value of ``x`` when dim ``k`` ranges over
    ``[0, highs[k]]``: exact for sums of independent terms, wider otherwise."""
    kind = x.kind
    if kind == "const":
        return str(x.value), str(x.value)
    if kind == "dim":
        return "0", highs[x.value]
    if kind == "symbol":
        return symbols[x.value], symbols[x.value]
    lo1, hi1 = _interval_c(e, x.lhs, highs, symbols, code)
    lo2, hi2 = _interval_c(e, x.rhs, highs, symbols, code)
    if kind == "+":
        return e.local(f"{lo1} + {lo2}"), e.local(f"{hi1} + {hi2}")
    if kind == "*":
        products = [f"{a} * {b}" for a in (lo1, hi1) for b in (lo2, hi2)]
        least = (
            f"pa_min(pa_min({products[0]}, {products[1]}), pa_min({products[2]}, {products[3]}))"
        )
        most = f"pa_max(pa_max({products[0]}, {products[1]}), pa_max({products[2]}, {products[3]}))"
        return e.local(least), e.local(most)
    divisor = e.local(f"pa_pos({lo2}, {code})")  # a constant or symbolic: one value
    if kind == "mod":
        return "0", e.local(f"{divisor} - 1")
    helper = "pa_floordiv" if kind == "floordiv" else "pa_ceildiv"
    return e.local(f"{helper}({lo1}, {divisor})"), e.local(f"{helper}({hi1}, {divisor})")


@c_op("memref.dealloc")
def _c_dealloc(e: FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    e.line(f"pa_free(&arena, {mem.data});")


@c_op("affine.prefetch")
def _c_prefetch(e: FunctionEmitter, op: Operation) -> None:
    return


@c_op("memref.dim")
def _c_dim(e: FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    sizes = e.sizes_c(mem)
    index_op = op.operands[1].owner_op
    attr = (
        index_op.properties.get("value")
        if index_op is not None and index_op.name == "arith.constant"
        else None
    )
    if isinstance(attr, IntegerAttr) and 0 <= attr.value < len(sizes):
        e.define(op.results[0], sizes[attr.value])
    else:
        e.define(
            op.results[0],
            f"((const int64_t[]){{{', '.join(sizes) or '0'}}})[{e.v(op.operands[1])}]",
        )
    e.nonneg.add(op.results[0])


@c_op("memref.cast")
def _c_cast(e: FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    target = op.results[0].type
    if not isinstance(target, MemRefType):
        raise ExecutionError("'memref.cast' to an unranked memref cannot be compiled", op.loc)
    try:
        offset, symbols, pstrides = cast_layout_values(mem.type, target, mem.symbols, mem.pstrides)
    except ExecutionError as err:
        raise ExecutionError(err.message, op.loc) from None
    data = mem.data if offset == 0 else f"({mem.data} + {offset})"
    static = static_physical_strides(target)
    pstrides = (
        tuple(s if s is not None else p for s, p in zip(static, pstrides))
        if target.has_identity_layout
        else pstrides
    )
    e.mems[op.results[0]] = CMem(target, data, list(mem.sizes), list(symbols), list(pstrides))


def _c_add(a: Any, b: Any) -> Any:
    """``a + b`` for ints (folded) or C expressions."""
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if a == 0:
        return b
    if b == 0:
        return a
    return f"({a} + {b})"


def _c_mul(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if a == 0 or b == 0:
        return 0
    if a == 1:
        return b
    if b == 1:
        return a
    return f"({a} * {b})"


def _c_view(
    e: FunctionEmitter,
    op: Operation,
    data: str,
    offset: Any,
    strides: Sequence[Any],
    sizes: Sequence[Any],
) -> None:
    """Bind the result of a view op to ``data`` seen at ``offset + sum(i_k * strides[k])``."""
    target = op.results[0].type
    if not isinstance(target, MemRefType):
        raise ExecutionError(f"'{op.name}' to '{target}' cannot be compiled", op.loc)
    try:
        start, symbols, pstrides = strided_view_values(target, offset, strides, op.name)
    except ExecutionError as err:
        raise ExecutionError(err.message, op.loc) from None
    view = data if start == 0 else f"({data} + {start})"
    if target.has_identity_layout:
        pstrides = tuple(
            s if s is not None else p for s, p in zip(static_physical_strides(target), pstrides)
        )
    e.mems[op.results[0]] = CMem(target, view, list(sizes), list(symbols), list(pstrides))


def _c_view_operands(e: FunctionEmitter, op: Operation) -> tuple[list[Any], list[Any], list[Any]]:
    lists = view_operands(op)
    return tuple([v if isinstance(v, int) else e.v(v) for v in values] for values in lists)  # type: ignore[return-value]  # a tuple of three lists, built by a generator mypy types as tuple[list, ...]


@c_op("memref.subview")
def _c_subview(e: FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    offsets, sizes, steps = _c_view_operands(e, op)
    if len(op.results[0].type.shape) != len(mem.type.shape):  # type: ignore[attr-defined]  # memref.subview's verifier checked memref types
        raise ExecutionError("rank-reducing 'memref.subview' cannot be compiled", op.loc)
    form = bound_strided_form(mem.type, mem.symbols, mem.pstrides)
    if form is None:
        raise ExecutionError(
            f"'memref.subview' of '{mem.type}' cannot be compiled (only strided sources)", op.loc
        )
    base, strides = form
    offset = base
    for o, st in zip(offsets, strides):
        offset = _c_add(offset, _c_mul(o, st))
    _c_view(e, op, mem.data, offset, [_c_mul(st, step) for st, step in zip(strides, steps)], sizes)


@c_op("memref.reinterpret_cast")
def _c_reinterpret_cast(e: FunctionEmitter, op: Operation) -> None:
    (offset,), sizes, strides = _c_view_operands(e, op)
    _c_view(e, op, e.mem(op.operands[0]).data, offset, strides, sizes)


def _linear_c(indices: Sequence[str], sizes: Sequence[str]) -> str:
    expr = "0"
    for i, s in zip(indices, sizes):
        expr = f"({expr} * {s} + {i})"
    return expr


def _delinearize(e: FunctionEmitter, linear: str, mem: CMem) -> list[str]:
    names: list[str] = []
    rest = linear
    sizes = e.sizes_c(mem)
    for k in range(len(sizes) - 1, -1, -1):
        if k == 0:
            names.insert(0, rest)
            break
        names.insert(0, f"({rest} % {sizes[k]})")
        rest = f"({rest} / {sizes[k]})"
    return names


def _numel(e: FunctionEmitter, mem: CMem) -> str:
    sizes = e.sizes_c(mem)
    return " * ".join(sizes) if sizes else "1"


def _transfer(
    e: FunctionEmitter,
    op: Operation,
    src: CMem,
    src_idx: Sequence[str],
    dst: CMem,
    dst_idx: Sequence[str],
    tag: CMem | None,
    tag_idx: Sequence[str],
    count: str | None,
    stride: str | None,
    per: str | None,
) -> None:
    """A DMA (``count`` elements from the start indices) or a whole-memref copy (``count``
    None), in logical row-major order, with the checks the interpreter makes."""

    info = memref_element(src, op.loc)
    code = e.program.error_code(
        op, "out-of-bounds transfer (or a negative element count or stride)"
    )
    e.line("{")
    e.depth += 1
    n = e.fresh("n")
    s0, d0 = e.fresh("s"), e.fresh("d")
    conds: list[str] = []
    if count is None:
        e.line(f"const int64_t {n} = {_numel(e, src)};")
        e.line(f"const int64_t {s0} = 0, {d0} = 0;")
        conds.extend(f"{a} != {b}" for a, b in zip(e.sizes_c(src), e.sizes_c(dst)))
    else:
        e.line(f"const int64_t {n} = {count};")
        for idx, mem in ((src_idx, src), (dst_idx, dst)) + (
            ((tag_idx, tag),) if tag is not None else ()
        ):
            conds.extend(f"({i}) < 0 || ({i}) >= {s}" for i, s in zip(idx, e.sizes_c(mem)))
        e.line(f"const int64_t {s0} = {_linear_c(src_idx, e.sizes_c(src))};")
        e.line(f"const int64_t {d0} = {_linear_c(dst_idx, e.sizes_c(dst))};")
        conds.append(f"{n} < 0")
    strided_src = strided_side_is_source(src.type, dst.type)
    blocked = None
    if stride is not None and per is not None:
        conds.append(f"{per} <= 0 || {stride} < {per}")
        blocked = f"(({n} - 1) / {per} * {stride} + ({n} - 1) % {per})"
    last_src = f"{s0} + {blocked if blocked and strided_src else f'{n} - 1'}"
    last_dst = f"{d0} + {blocked if blocked and not strided_src else f'{n} - 1'}"
    conds.append(f"{n} > 0 && ({last_src} >= {_numel(e, src)} || {last_dst} >= {_numel(e, dst)})")
    e.line(f"if ({' || '.join(f'({c})' for c in conds)}) {{")
    e.line(f"  pa_fail({code});")
    e.line("} else {")
    e.depth += 1
    contiguous = is_contiguous_row_major(src.type) and is_contiguous_row_major(dst.type)
    if contiguous and blocked is None:
        e.line(f"memmove({dst.data} + {d0}, {src.data} + {s0}, (size_t){n} * sizeof({info.c}));")
    else:
        k = e.fresh("k")
        e.line(f"for (int64_t {k} = 0; {k} < {n}; ++{k}) {{")
        e.depth += 1
        moved = f"({k} / {per} * {stride} + {k} % {per})" if blocked else k
        sl, dl = e.fresh("sl"), e.fresh("dl")
        e.line(f"const int64_t {sl} = {s0} + {moved if strided_src else k};")
        e.line(f"const int64_t {dl} = {d0} + {k if strided_src else moved};")
        src_pos = e.position(src, _delinearize(e, sl, src))
        dst_pos = e.position(dst, _delinearize(e, dl, dst))
        e.line(f"{dst.data}[{dst_pos}] = {src.data}[{src_pos}];")
        e.depth -= 1
        e.line("}")
    e.depth -= 1
    e.line("}")
    e.depth -= 1
    e.line("}")


def _dma_start(
    e: FunctionEmitter,
    op: Operation,
    d: DmaStartOp | MemRefDmaStart,
    indices: tuple[list[str], list[str], list[str]],
) -> None:
    """A DMA as a copy; ``indices`` of the source, the destination and the tag in C."""
    src, dst, tag = indices
    optional = [None if v is None else e.v(v) for v in (d.stride, d.elements_per_stride)]
    _transfer(
        e,
        op,
        e.mem(d.src),
        src,
        e.mem(d.dst),
        dst,
        e.mem(d.tag),
        tag,
        e.v(d.num_elements),
        *optional,
    )


@c_op("affine.dma_start")
def _c_affine_dma(e: FunctionEmitter, op: Operation) -> None:
    d = DmaStartOp(op)
    maps = [(d.src_map, d.src_indices), (d.dst_map, d.dst_indices), (d.tag_map, d.tag_indices)]
    src, dst, tag = (map_indices(e, op, m, operands) for m, operands in maps)
    _dma_start(e, op, d, (src, dst, tag))


@c_op("memref.dma_start")
def _c_memref_dma(e: FunctionEmitter, op: Operation) -> None:
    d = MemRefDmaStart(op)
    src, dst, tag = ([e.v(v) for v in vs] for vs in (d.src_indices, d.dst_indices, d.tag_indices))
    _dma_start(e, op, d, (src, dst, tag))


def _dma_wait(e: FunctionEmitter, op: Operation, indices: list[str]) -> None:
    tag = e.mem(op.operands[0])
    conds = [f"({i}) < 0 || ({i}) >= {s}" for i, s in zip(indices, e.sizes_c(tag))]
    if conds:
        code = e.program.error_code(op, f"out-of-bounds tag index for '{tag.type}'")
        e.line(f"if ({' || '.join(conds)}) {{ pa_fail({code}); }}")


@c_op("affine.dma_wait")
def _c_affine_dma_wait(e: FunctionEmitter, op: Operation) -> None:
    m = op.attributes["tag_map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    _dma_wait(e, op, map_indices(e, op, m, op.operands[1:-1]))


@c_op("memref.dma_wait")
def _c_memref_dma_wait(e: FunctionEmitter, op: Operation) -> None:
    _dma_wait(e, op, [e.v(v) for v in op.operands[1:-1]])


@c_op("memref.copy")
def _c_copy(e: FunctionEmitter, op: Operation) -> None:
    _transfer(
        e, op, e.mem(op.operands[0]), [], e.mem(op.operands[1]), [], None, [], None, None, None
    )
