"""The ``memref`` dialect ops the toolkit reads with custom syntax."""

from __future__ import annotations

from affine.attributes import DenseArrayAttr
from affine.dialects.common import (
    OpView,
    create,
    op_error,
    parse_dma_start,
    segment_sizes,
    segments,
)
from affine.dialects.registry import PURE, define
from affine.ir import Operation, Value
from affine.parser import Parser
from affine.printer import Printer
from affine.types import DYNAMIC, I64, INDEX, IndexType, MemRefType, ShapedType, UnrankedMemRefType

# -- alloc / alloca ---------------------------------------------------------------------------------


def _parse_alloc(name: str):
    def parse(p: Parser, offset: int) -> Operation:
        dynamic = p.parse_operand_list("(")
        syms = p.parse_operand_list("[?")
        attrs = p.parse_optional_attr_dict()
        t = p.parse_colon_type_of(MemRefType, "builtin.memref")
        values = p.resolve_all(dynamic + syms, INDEX)
        props = {"operandSegmentSizes": segment_sizes(len(dynamic), len(syms))}
        for key in ("alignment",):
            if key in attrs:
                props[key] = attrs.pop(key)
        return create(p, name, offset, values, [t], props, attrs)

    return parse


def _print_alloc(pr: Printer, op: Operation) -> None:
    dyn, syms = segments(op, 0), segments(op, 1)
    pr.write("(" + pr.operands(dyn) + ")")
    if syms:
        pr.write("[" + pr.operands(syms) + "]")
    attrs = dict(op.attributes)
    if "alignment" in op.properties:
        attrs["alignment"] = op.properties["alignment"]
    pr.write(pr.attr_dict(attrs) + " : " + pr.type(op.results[0].type))


def _verify_alloc(op: Operation) -> None:
    t = op.results[0].type
    if not isinstance(t, MemRefType):
        op_error(op, "result must be a memref")
    dyn, syms = segments(op, 0), segments(op, 1)
    if len(dyn) != t.num_dynamic_dims:
        op_error(op, "dimension operand count does not equal memref dynamic dimension count")
    expected_syms = t.layout_map().num_symbols if t.layout and not _is_strided(t) else 0
    if len(syms) != expected_syms:
        op_error(
            op,
            "symbol operand count does not equal memref symbol count: expected "
            f"{expected_syms}, got {len(syms)}",
        )


def _is_strided(t: MemRefType) -> bool:
    from affine.types import StridedLayout

    return isinstance(t.layout, StridedLayout)


for _name in ("memref.alloc", "memref.alloca"):
    define(
        _name,
        parse=_parse_alloc(_name),
        print=_print_alloc,
        verify=_verify_alloc,
        properties=("operandSegmentSizes", "alignment"),
        result_names=lambda op: [op.name.split(".")[1]],
    )


# -- dealloc / dim / load / store / cast / copy -----------------------------------------------------


def _parse_dealloc(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type()
    return create(p, "memref.dealloc", offset, [p.resolve(memref, t)], [], None, attrs)


def _print_dealloc(pr: Printer, op: Operation) -> None:
    pr.write(
        f" {pr.operand(op.operands[0])}{pr.attr_dict(op.attributes)} : {pr.type(op.operands[0].type)}"
    )


define("memref.dealloc", parse=_parse_dealloc, print=_print_dealloc)


def _parse_dim(p: Parser, offset: int) -> Operation:
    source = p.parse_operand()
    p.expect(",")
    index = p.parse_operand()
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type()
    return create(
        p,
        "memref.dim",
        offset,
        [p.resolve(source, t), p.resolve(index, INDEX)],
        [INDEX],
        None,
        attrs,
    )


def _print_dim(pr: Printer, op: Operation) -> None:
    pr.write(
        f" {pr.operand(op.operands[0])}, {pr.operand(op.operands[1])}{pr.attr_dict(op.attributes)} : "
        f"{pr.type(op.operands[0].type)}"
    )


def _verify_dim(op: Operation) -> None:
    t = op.operands[0].type
    if not isinstance(t, (MemRefType, UnrankedMemRefType)):
        op_error(
            op,
            "operand #0 must be unranked.memref of any type values or non-0-ranked.memref of any type values",
        )
    if not isinstance(op.operands[1].type, IndexType):
        op_error(op, "operand #1 must be index")


define(
    "memref.dim",
    parse=_parse_dim,
    print=_print_dim,
    verify=_verify_dim,
    result_names=lambda op: ["dim"],
)


def _parse_memref_load(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    indices = p.parse_operand_list("[")
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type_of(MemRefType, "builtin.memref")
    values = [p.resolve(memref, t)] + p.resolve_all(indices, INDEX)
    props = {}
    if "nontemporal" in attrs:
        props["nontemporal"] = attrs.pop("nontemporal")
    return create(p, "memref.load", offset, values, [t.element_type], props, attrs)


def _print_memref_load(pr: Printer, op: Operation) -> None:
    attrs = dict(op.attributes)
    attrs.update({k: v for k, v in op.properties.items() if k == "nontemporal" and v.value})  # type: ignore[attr-defined]
    pr.write(
        f" {pr.operand(op.operands[0])}[{pr.operands(op.operands[1:])}]{pr.attr_dict(attrs)} : "
        f"{pr.type(op.operands[0].type)}"
    )


def _verify_memref_load(op: Operation) -> None:
    t = op.operands[0].type
    if not isinstance(t, MemRefType):
        op_error(op, "operand #0 must be memref")
    if len(op.operands) - 1 != len(t.shape):
        op_error(
            op,
            "incorrect number of indices for load, expected "
            f"{len(t.shape)} but got {len(op.operands) - 1}",
        )
    if op.results[0].type != t.element_type:
        op_error(op, "result type must match element type of memref")


def _parse_memref_store(p: Parser, offset: int) -> Operation:
    value = p.parse_operand()
    p.expect(",")
    memref = p.parse_operand()
    indices = p.parse_operand_list("[")
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type_of(MemRefType, "builtin.memref")
    values = [p.resolve(value, t.element_type), p.resolve(memref, t)] + p.resolve_all(
        indices, INDEX
    )
    props = {}
    if "nontemporal" in attrs:
        props["nontemporal"] = attrs.pop("nontemporal")
    return create(p, "memref.store", offset, values, [], props, attrs)


def _print_memref_store(pr: Printer, op: Operation) -> None:
    attrs = dict(op.attributes)
    attrs.update({k: v for k, v in op.properties.items() if k == "nontemporal" and v.value})  # type: ignore[attr-defined]
    pr.write(
        f" {pr.operand(op.operands[0])}, {pr.operand(op.operands[1])}[{pr.operands(op.operands[2:])}]"
        f"{pr.attr_dict(attrs)} : {pr.type(op.operands[1].type)}"
    )


def _verify_memref_store(op: Operation) -> None:
    t = op.operands[1].type
    if not isinstance(t, MemRefType):
        op_error(op, "operand #1 must be memref")
    if len(op.operands) - 2 != len(t.shape):
        op_error(op, "store index operand count not equal to memref rank")
    if op.operands[0].type != t.element_type:
        op_error(op, "value to store must have the same type as memref element type")


define(
    "memref.load",
    parse=_parse_memref_load,
    print=_print_memref_load,
    verify=_verify_memref_load,
    properties=("nontemporal",),
)
define(
    "memref.store",
    parse=_parse_memref_store,
    print=_print_memref_store,
    verify=_verify_memref_store,
    properties=("nontemporal",),
)


def _parse_cast_like(name: str):
    def parse(p: Parser, offset: int) -> Operation:
        source = p.parse_operand()
        attrs = p.parse_optional_attr_dict()
        t_in = p.parse_colon_type()
        p.expect_op_keyword("to")
        t_out = p.parse_type()
        return create(p, name, offset, [p.resolve(source, t_in)], [t_out], None, attrs)

    return parse


def _print_cast_like(pr: Printer, op: Operation) -> None:
    pr.write(
        f" {pr.operand(op.operands[0])}{pr.attr_dict(op.attributes)} : {pr.type(op.operands[0].type)} to "
        f"{pr.type(op.results[0].type)}"
    )


def _verify_memref_cast(op: Operation) -> None:
    a, b = op.operands[0].type, op.results[0].type
    if not isinstance(a, (MemRefType, UnrankedMemRefType)) or not isinstance(
        b, (MemRefType, UnrankedMemRefType)
    ):
        op_error(op, "operands must be memrefs")
    if a.element_type != b.element_type:
        op_error(op, f"operand type '{a}' and result type '{b}' are cast incompatible")
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        if len(a.shape) != len(b.shape) or any(
            x != y and x != DYNAMIC and y != DYNAMIC for x, y in zip(a.shape, b.shape)
        ):
            op_error(op, f"operand type '{a}' and result type '{b}' are cast incompatible")


define(
    "memref.cast",
    parse=_parse_cast_like("memref.cast"),
    print=_print_cast_like,
    verify=_verify_memref_cast,
    traits=(PURE,),
    result_names=lambda op: ["cast"],
)


def _parse_copy(p: Parser, offset: int) -> Operation:
    source = p.parse_operand()
    p.expect(",")
    target = p.parse_operand()
    attrs = p.parse_optional_attr_dict()
    t_in = p.parse_colon_type()
    p.expect_op_keyword("to")
    t_out = p.parse_type()
    return create(
        p,
        "memref.copy",
        offset,
        [p.resolve(source, t_in), p.resolve(target, t_out)],
        [],
        None,
        attrs,
    )


def _print_copy(pr: Printer, op: Operation) -> None:
    a, b = op.operands
    pr.write(
        f" {pr.operand(a)}, {pr.operand(b)}{pr.attr_dict(op.attributes)} : {pr.type(a.type)} to {pr.type(b.type)}"
    )


def _verify_copy(op: Operation) -> None:
    a, b = (v.type for v in op.operands)
    if (
        not isinstance(a, ShapedType)
        or not isinstance(b, ShapedType)
        or a.element_type != b.element_type
    ):
        op_error(op, "failed to verify that source and target have the same element type")


define("memref.copy", parse=_parse_copy, print=_print_copy, verify=_verify_copy)


# -- subview ---------------------------------------------------------------------------------------


def _parse_mixed_list(p: Parser) -> tuple[list[int], list[tuple[Value, int]]]:
    """``[0, %i, 4]``: static values with ``?`` (DYNAMIC) where an SSA value is given."""
    p.expect("[")
    static: list[int] = []
    dynamic: list[tuple[Value, int]] = []
    if not p.accept("]"):
        while True:
            if p.at("%"):
                dynamic.append(p.parse_operand())
                static.append(DYNAMIC)
            else:
                static.append(p.parse_integer())
            if not p.accept(","):
                break
        p.expect("]")
    return static, dynamic


def _parse_subview(p: Parser, offset: int) -> Operation:
    source = p.parse_operand()
    offsets, dyn_offsets = _parse_mixed_list(p)
    sizes, dyn_sizes = _parse_mixed_list(p)
    strides, dyn_strides = _parse_mixed_list(p)
    attrs = p.parse_optional_attr_dict()
    t_in = p.parse_colon_type()
    p.expect_op_keyword("to")
    t_out = p.parse_type()
    values = (
        [p.resolve(source, t_in)]
        + p.resolve_all(dyn_offsets, INDEX)
        + p.resolve_all(dyn_sizes, INDEX)
        + p.resolve_all(dyn_strides, INDEX)
    )
    props = {
        "operandSegmentSizes": segment_sizes(1, len(dyn_offsets), len(dyn_sizes), len(dyn_strides)),
        "static_offsets": DenseArrayAttr(I64, offsets),
        "static_sizes": DenseArrayAttr(I64, sizes),
        "static_strides": DenseArrayAttr(I64, strides),
    }
    return create(p, "memref.subview", offset, values, [t_out], props, attrs)


def _print_mixed(pr: Printer, static: tuple, dynamic: list[Value]) -> str:
    it = iter(dynamic)
    return "[" + ", ".join(pr.operand(next(it)) if s == DYNAMIC else str(s) for s in static) + "]"


def _print_subview(pr: Printer, op: Operation) -> None:
    props = op.properties
    pr.write(f" {pr.operand(op.operands[0])}")
    pr.write(_print_mixed(pr, props["static_offsets"].values, segments(op, 1)))  # type: ignore[attr-defined]
    pr.write(" " + _print_mixed(pr, props["static_sizes"].values, segments(op, 2)))  # type: ignore[attr-defined]
    pr.write(" " + _print_mixed(pr, props["static_strides"].values, segments(op, 3)))  # type: ignore[attr-defined]
    pr.write(
        pr.attr_dict(op.attributes)
        + f" : {pr.type(op.operands[0].type)} to {pr.type(op.results[0].type)}"
    )


define(
    "memref.subview",
    parse=_parse_subview,
    print=_print_subview,
    properties=("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"),
    traits=(PURE,),
    result_names=lambda op: ["subview"],
)


# -- dma_start / dma_wait --------------------------------------------------------------------------


def _parse_memref_dma_start(p: Parser, offset: int) -> Operation:
    return parse_dma_start(p, offset, "memref.dma_start", False, True, "expected 3 types")


class MemRefDmaStart(OpView):
    """Operand layout of ``memref.dma_start``: src, src idx, dst, dst idx, count, tag, tag idx
    (, stride, elements per stride)."""

    __slots__ = ()
    OP_NAMES = ("memref.dma_start",)

    @property
    def src(self) -> Value:
        return self.op.operands[0]

    @property
    def src_rank(self) -> int:
        return len(self.src.type.shape)  # type: ignore[attr-defined]

    @property
    def src_indices(self) -> list[Value]:
        return self.op.operands[1 : 1 + self.src_rank]

    @property
    def dst(self) -> Value:
        return self.op.operands[1 + self.src_rank]

    @property
    def dst_indices(self) -> list[Value]:
        start = 2 + self.src_rank
        return self.op.operands[start : start + len(self.dst.type.shape)]  # type: ignore[attr-defined]

    @property
    def _count_pos(self) -> int:
        return 2 + self.src_rank + len(self.dst.type.shape)  # type: ignore[attr-defined]

    @property
    def num_elements(self) -> Value:
        return self.op.operands[self._count_pos]

    @property
    def tag(self) -> Value:
        return self.op.operands[self._count_pos + 1]

    @property
    def tag_indices(self) -> list[Value]:
        start = self._count_pos + 2
        return self.op.operands[start : start + len(self.tag.type.shape)]  # type: ignore[attr-defined]

    @property
    def is_strided(self) -> bool:
        return len(self.op.operands) > self._count_pos + 2 + len(self.tag.type.shape)  # type: ignore[attr-defined]

    @property
    def stride(self) -> Value | None:
        return self.op.operands[-2] if self.is_strided else None

    @property
    def elements_per_stride(self) -> Value | None:
        return self.op.operands[-1] if self.is_strided else None


def _print_memref_dma_start(pr: Printer, op: Operation) -> None:
    d = MemRefDmaStart(op)
    pr.write(
        f" {pr.operand(d.src)}[{pr.operands(d.src_indices)}], {pr.operand(d.dst)}[{pr.operands(d.dst_indices)}], "
        f"{pr.operand(d.num_elements)}, {pr.operand(d.tag)}[{pr.operands(d.tag_indices)}]"
    )
    if d.is_strided:
        pr.write(f", {pr.operand(d.stride)}, {pr.operand(d.elements_per_stride)}")
    pr.write(f" : {pr.type(d.src.type)}, {pr.type(d.dst.type)}, {pr.type(d.tag.type)}")


def _verify_memref_dma_start(op: Operation) -> None:
    """mlir-opt's checks, in its order (operand positions follow from the memref ranks)."""
    operands = op.operands
    n = len(operands)
    if n < 4:
        op_error(op, "expected at least 4 operands")

    def rank(v: Value) -> int:
        return len(v.type.shape)  # type: ignore[attr-defined]

    def all_index(values: list[Value]) -> bool:
        return all(isinstance(v.type, IndexType) for v in values)

    src = operands[0]
    if not isinstance(src.type, MemRefType):
        op_error(op, "expected source to be of memref type")
    expected = rank(src) + 4
    if n < expected:
        op_error(op, f"expected at least {expected} operands")
    if not all_index(operands[1 : 1 + rank(src)]):
        op_error(op, "expected source indices to be of index type")
    dst = operands[1 + rank(src)]
    if not isinstance(dst.type, MemRefType):
        op_error(op, "expected destination to be of memref type")
    expected = rank(src) + rank(dst) + 4
    if n < expected:
        op_error(op, f"expected at least {expected} operands")
    dst_start = 2 + rank(src)
    if not all_index(operands[dst_start : dst_start + rank(dst)]):
        op_error(op, "expected destination indices to be of index type")
    count_pos = dst_start + rank(dst)
    if not isinstance(operands[count_pos].type, IndexType):
        op_error(op, "expected num elements to be of index type")
    tag = operands[count_pos + 1]
    if not isinstance(tag.type, MemRefType):
        op_error(op, "expected tag to be of memref type")
    expected += rank(tag)
    if n < expected:
        op_error(op, f"expected at least {expected} operands")
    if not all_index(operands[count_pos + 2 : count_pos + 2 + rank(tag)]):
        op_error(op, "expected tag indices to be of index type")
    if n not in (expected, expected + 2):
        op_error(op, "incorrect number of operands")
    if n == expected + 2 and not all_index(operands[-2:]):
        op_error(op, "expected stride and num elements per stride to be of type index")


define(
    "memref.dma_start",
    parse=_parse_memref_dma_start,
    print=_print_memref_dma_start,
    verify=_verify_memref_dma_start,
)


def _parse_memref_dma_wait(p: Parser, offset: int) -> Operation:
    tag = p.parse_operand()
    tag_idx = p.parse_operand_list("[")
    p.expect(",")
    num = p.parse_operand()
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type()
    values = [p.resolve(tag, t)] + p.resolve_all(tag_idx, INDEX) + [p.resolve(num, INDEX)]
    return create(p, "memref.dma_wait", offset, values, [], None, attrs)


def _print_memref_dma_wait(pr: Printer, op: Operation) -> None:
    pr.write(
        f" {pr.operand(op.operands[0])}[{pr.operands(op.operands[1:-1])}], {pr.operand(op.operands[-1])}"
        f"{pr.attr_dict(op.attributes)} : {pr.type(op.operands[0].type)}"
    )


def _verify_memref_dma_wait(op: Operation) -> None:
    if not op.operands or not isinstance(op.operands[0].type, MemRefType):
        op_error(op, "operand #0 must be memref of any type values")
    for i, v in enumerate(op.operands[1:], 1):
        if not isinstance(v.type, IndexType):
            op_error(op, f"operand #{i} must be variadic of index, but got '{v.type}'")
    rank = len(op.operands[0].type.shape)  # type: ignore[attr-defined]
    if len(op.operands) - 2 != rank:
        op_error(
            op,
            "expected tagIndices to have the same number of elements as the tagMemRef rank, "
            f"expected {rank}, but got {len(op.operands) - 2}",
        )


define(
    "memref.dma_wait",
    parse=_parse_memref_dma_wait,
    print=_print_memref_dma_wait,
    verify=_verify_memref_dma_wait,
)

# Known by name only (read and printed generically), so that analyses see their semantics.
for _name, _props in (
    ("memref.view", ()),
    (
        "memref.reinterpret_cast",
        ("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"),
    ),
    ("memref.expand_shape", ("reassociation", "static_output_shape")),
    ("memref.collapse_shape", ("reassociation",)),
    ("memref.get_global", ("name",)),
    (
        "memref.global",
        ("sym_name", "sym_visibility", "type", "initial_value", "constant", "alignment"),
    ),
):
    define(_name, properties=_props)

__all__ = ["MemRefDmaStart"]
