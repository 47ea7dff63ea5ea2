"""The ``memref`` dialect ops the toolkit reads with custom syntax."""

from __future__ import annotations

import math
from typing import NoReturn

from affine.dialects.affine_dialect import ensure_terminator
from affine.dialects.common import (
    DmaStartView,
    attribute_constraint_error,
    create,
    memref_at,
    op_error,
    parse_dma_start,
    parse_prefetch_tail,
    prefetch_flags,
    print_dma_start_tail,
    print_prefetch,
    referenced_symbol,
    segments,
    string_value,
)
from affine.dialects.format import (
    AFFINE_MAP,
    OPTIONAL,
    SYMBOL_REF,
    VARIADIC,
    AttrSyntax,
    Group,
    define_format,
    define_return_like,
    element_of,
    enum_syntax,
    integer_syntax,
    same_as,
)
from affine.ir.attributes import (
    UNIT,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseElementsAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from affine.ir.core import Operation, Value
from affine.ir.diagnostics import VerifyError
from affine.ir.registry import AUTOMATIC_ALLOCATION_SCOPE, PURE, TERMINATOR, define, lookup
from affine.ir.strides import saturated_add, saturated_mul, strides_and_offset
from affine.ir.symbols import symbol_name
from affine.ir.types import (
    DYNAMIC,
    I32,
    I64,
    INDEX,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    StridedLayout,
    TensorType,
    UnrankedMemRefType,
)
from affine.syntax.lexer import unescape_string
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer

_MEMREF = (MemRefType, "builtin.memref")
_CAST = "$source attr-dict `:` type($source) `to` type($dest)"
_VIEW_OPERANDS = [
    Group("source"),
    Group("offsets", VARIADIC, INDEX),
    Group("sizes", VARIADIC, INDEX),
    Group("strides", VARIADIC, INDEX),
]

# -- alloc / alloca ---------------------------------------------------------------------------------


def _verify_alloc(op: Operation) -> None:
    t = op.results[0].type
    if not isinstance(t, MemRefType):
        op_error(op, "result must be a memref")
    dyn, syms = segments(op, 0), segments(op, 1)
    if len(dyn) != t.num_dynamic_dims:
        op_error(
            op,
            f"incorrect number of dynamic sizes, has {len(dyn)}, expected {t.num_dynamic_dims}",
        )
    expected_syms = t.layout_map().num_symbols if t.layout and not _is_strided(t) else 0
    if len(syms) != expected_syms:
        op_error(
            op,
            "symbol operand count does not equal memref symbol count: expected "
            f"{expected_syms}, got {len(syms)}",
        )
    if op.name == "memref.alloca":
        scope = op.parent_op
        while scope is not None:
            d = lookup(scope.name)
            if d is not None and d.has(AUTOMATIC_ALLOCATION_SCOPE):
                break
            scope = scope.parent_op
        if scope is None:
            op_error(op, "requires an ancestor op with AutomaticAllocationScope trait")


def _is_strided(t: MemRefType) -> bool:
    return isinstance(t.layout, StridedLayout)


for _name in ("memref.alloc", "memref.alloca"):
    define_format(
        _name,
        "`(` $dynamicSizes `)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
        operands=[Group("dynamicSizes", VARIADIC, INDEX), Group("symbolOperands", VARIADIC, INDEX)],
        results=[Group("memref", kind=_MEMREF)],
        properties=("operandSegmentSizes", "alignment"),
        verify=_verify_alloc,
        result_names=lambda op: [op.name.split(".")[1]],
    )


# -- dealloc / dim / load / store / cast / copy -----------------------------------------------------


define_format("memref.dealloc", "$memref attr-dict `:` type($memref)", operands=[Group("memref")])


def _verify_dim(op: Operation) -> None:
    t = op.operands[0].type
    if not isinstance(t, (MemRefType, UnrankedMemRefType)):
        op_error(
            op,
            "operand #0 must be unranked.memref of any type values or non-0-ranked.memref of any type values",
        )
    if not isinstance(op.operands[1].type, IndexType):
        op_error(op, "operand #1 must be index")


define_format(
    "memref.dim",
    "$source `,` $index attr-dict `:` type($source)",
    operands=[Group("source"), Group("index", type=INDEX)],
    results=[Group("result", type=INDEX)],
    verify=_verify_dim,
    result_names=lambda op: ["dim"],
)


def _verify_memref_load(op: Operation) -> None:
    t = memref_at(op, "operand", 0)
    if len(op.operands) - 1 != len(t.shape):
        op_error(
            op,
            "incorrect number of indices for load, expected "
            f"{len(t.shape)} but got {len(op.operands) - 1}",
        )
    if op.results[0].type != t.element_type:
        op_error(op, "result type must match element type of memref")


def _verify_memref_store(op: Operation) -> None:
    t = op.operands[1].type
    if not isinstance(t, MemRefType):
        op_error(op, "operand #1 must be memref")
    if len(op.operands) - 2 != len(t.shape):
        op_error(op, "store index operand count not equal to memref rank")
    if op.operands[0].type != t.element_type:
        op_error(op, "value to store must have the same type as memref element type")


define_format(
    "memref.load",
    "$memref `[` $indices `]` attr-dict `:` type($memref)",
    operands=[Group("memref", kind=_MEMREF), Group("indices", VARIADIC, INDEX)],
    results=[Group("result", type=element_of("memref"))],
    properties=("nontemporal",),
    optional_defaults={"nontemporal": BoolAttr(False)},
    verify=_verify_memref_load,
)
define_format(
    "memref.store",
    "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
    operands=[
        Group("value", type=element_of("memref")),
        Group("memref", kind=_MEMREF),
        Group("indices", VARIADIC, INDEX),
    ],
    properties=("nontemporal",),
    optional_defaults={"nontemporal": BoolAttr(False)},
    verify=_verify_memref_store,
)


# -- subview ---------------------------------------------------------------------------------------


# -- dma_start / dma_wait --------------------------------------------------------------------------


def _parse_memref_dma_start(p: Parser, offset: int) -> Operation:
    return parse_dma_start(p, offset, "memref.dma_start", False, True, "expected 3 types")


_STRIDED = "strided memref of any type values"


def _memref(value: Value) -> MemRefType:
    """The type of ``value``, which the op's custom syntax reads as a ranked memref (the
    generic form does not check it: another type fails here, as it failed before when its
    fields were read)."""
    t = value.type
    assert isinstance(t, MemRefType), t
    return t


class MemRefDmaStart(DmaStartView):
    """Operand layout of ``memref.dma_start``: src, src idx, dst, dst idx, count, tag, tag idx
    (, stride, elements per stride)."""

    __slots__ = ()
    OP_NAMES = ("memref.dma_start",)

    @property
    def src_rank(self) -> int:
        return len(_memref(self.src).shape)

    @property
    def src_indices(self) -> list[Value]:
        return self.op.operands[1 : 1 + self.src_rank]

    @property
    def dst(self) -> Value:
        return self.op.operands[1 + self.src_rank]

    @property
    def dst_indices(self) -> list[Value]:
        start = 2 + self.src_rank
        return self.op.operands[start : start + len(_memref(self.dst).shape)]

    @property
    def _count_pos(self) -> int:
        return 2 + self.src_rank + len(_memref(self.dst).shape)

    @property
    def num_elements(self) -> Value:
        return self.op.operands[self._count_pos]

    @property
    def tag(self) -> Value:
        return self.op.operands[self._count_pos + 1]

    @property
    def tag_indices(self) -> list[Value]:
        start = self._count_pos + 2
        return self.op.operands[start : start + len(_memref(self.tag).shape)]

    @property
    def is_strided(self) -> bool:
        return len(self.op.operands) > self._count_pos + 2 + len(_memref(self.tag).shape)


def _print_memref_dma_start(pr: Printer, op: Operation) -> None:
    d = MemRefDmaStart(op)
    pr.write(
        f" {pr.operand(d.src)}[{pr.operands(d.src_indices)}], {pr.operand(d.dst)}[{pr.operands(d.dst_indices)}], "
        f"{pr.operand(d.num_elements)}, {pr.operand(d.tag)}[{pr.operands(d.tag_indices)}]"
    )
    print_dma_start_tail(pr, d, d.dst, d.tag)


def _verify_memref_dma_start(op: Operation) -> None:
    """mlir-opt's checks, in its order (operand positions follow from the memref ranks)."""
    operands = op.operands
    n = len(operands)
    if n < 4:
        op_error(op, "expected at least 4 operands")

    def rank(v: Value) -> int:
        return len(_memref(v).shape)

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


def _verify_memref_dma_wait(op: Operation) -> None:
    if not op.operands:
        op_error(op, "operand #0 must be memref of any type values")
    tag = memref_at(op, "operand", 0)
    for i, v in enumerate(op.operands[1:], 1):
        if not isinstance(v.type, IndexType):
            op_error(op, f"operand #{i} must be variadic of index, but got '{v.type}'")
    rank = len(tag.shape)
    if len(op.operands) - 2 != rank:
        op_error(
            op,
            "expected tagIndices to have the same number of elements as the tagMemRef rank, "
            f"expected {rank}, but got {len(op.operands) - 2}",
        )


define_format(
    "memref.dma_wait",
    "$tagMemRef `[` $tagIndices `]` `,` $numElements attr-dict `:` type($tagMemRef)",
    operands=[
        Group("tagMemRef"),
        Group("tagIndices", VARIADIC, INDEX),
        Group("numElements", type=INDEX),
    ],
    verify=_verify_memref_dma_wait,
)


# -- global / get_global ----------------------------------------------------------------------------


def _parse_memref_global(p: Parser, offset: int) -> Operation:
    props: dict[str, Attribute] = {}
    if p.at("str"):
        props["sym_visibility"] = StringAttr(unescape_string(p.tok))
        p.advance()
    if p.accept_keyword("constant"):
        props["constant"] = UNIT
    if not p.at("@"):
        p.op_error("expected valid '@'-identifier for symbol name")
    props["sym_name"] = StringAttr(p._parse_symbol_ref().root)
    p.expect(":")
    t = p.parse_type()
    if not isinstance(t, MemRefType) or not t.has_static_shape:
        p.op_error(f"type should be static shaped memref, but got '{t}'", offset)
    props["type"] = TypeAttr(t)
    if p.accept("="):
        if p.accept_keyword("uninitialized"):
            props["initial_value"] = UNIT
        else:
            value = p.parse_attribute(TensorType(t.shape, t.element_type))
            if not isinstance(value, DenseElementsAttr):
                p.op_error("initial value should be a unit or elements attribute", offset)
            props["initial_value"] = value
    attrs_offset = p.start
    attrs = p.parse_optional_attr_dict()
    if "alignment" in attrs:
        props["alignment"] = attrs.pop("alignment")
        if not _valid_global_alignment(props["alignment"]):
            p.op_error(f"'memref.global' op {_GLOBAL_ALIGNMENT}", attrs_offset)
    return create(p, "memref.global", offset, properties=props, attributes=attrs)


_GLOBAL_ALIGNMENT = (
    "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute "
    "whose value is positive and whose value is a power of two > 0"
)


def _valid_global_alignment(alignment: Attribute) -> bool:
    return (
        isinstance(alignment, IntegerAttr)
        and alignment.value > 0
        and not alignment.value & (alignment.value - 1)
    )


def _print_memref_global(pr: Printer, op: Operation) -> None:
    visibility = string_value(op, "sym_visibility")
    if visibility:
        pr.write(" " + pr.attr(op.properties["sym_visibility"]))
    if "constant" in op.properties:
        pr.write(" constant")
    pr.write(" " + pr.attr(SymbolRefAttr(string_value(op, "sym_name") or "")))
    pr.write(" : " + pr.type(op.properties["type"].value))  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    value = op.properties.get("initial_value")
    if isinstance(value, DenseElementsAttr):
        pr.write(" = " + pr.types.dense_body(value))
    elif value is not None:
        pr.write(" = uninitialized")
    attrs = dict(op.attributes)
    if "alignment" in op.properties:
        attrs["alignment"] = op.properties["alignment"]
    pr.write(pr.attr_dict(attrs))


def _verify_memref_global(op: Operation) -> None:
    visibility = string_value(op, "sym_visibility")
    if visibility is not None and visibility not in ("public", "private", "nested"):
        op_error(
            op,
            'visibility expected to be one of ["public", "private", "nested"], but got '
            f'"{visibility}"',
        )
    t_attr = op.properties.get("type")
    t = t_attr.value if isinstance(t_attr, TypeAttr) else None
    if not isinstance(t, MemRefType) or not t.has_static_shape:
        op_error(op, f"type should be static shaped memref, but got '{t}'")
    value = op.properties.get("initial_value")
    if value is not None and not isinstance(value, UnitAttr):
        if not isinstance(value, DenseElementsAttr):
            op_error(op, "initial value should be a unit or elements attribute")
        expected = TensorType(t.shape, t.element_type)
        if value.type != expected:
            op_error(
                op,
                f"initial value expected to be of type '{expected}', but was of type "
                f"'{value.type}'",
            )
    alignment = op.properties.get("alignment")
    if alignment is not None and not _valid_global_alignment(alignment):
        op_error(op, _GLOBAL_ALIGNMENT)


define(
    "memref.global",
    parse=_parse_memref_global,
    print=_print_memref_global,
    verify=_verify_memref_global,
    properties=("sym_name", "sym_visibility", "type", "initial_value", "constant", "alignment"),
)


def _verify_get_global(op: Operation) -> None:
    target = referenced_symbol(
        op,
        "name",
        "memref.global",
        "requires attribute 'name'",
        "'{name}' does not reference a valid global memref",
    )
    t = target.properties.get("type")
    expected = t.value if isinstance(t, TypeAttr) else None
    if op.results[0].type != expected:
        op_error(
            op,
            f"result type '{op.results[0].type}' does not match type '{expected}' of the "
            f"global memref @{symbol_name(target)}",
        )


define_format(
    "memref.get_global",
    "$name attr-dict `:` type($result)",
    results=[Group("result", kind=_MEMREF)],
    shown={"name": SYMBOL_REF},
    properties=("name",),
    verify=_verify_get_global,
    traits=(PURE,),
)


# -- simple unary ops: rank / extract_aligned_pointer_as_index / memory_space_cast / realloc ------


def _verify_memref_operand(op: Operation) -> None:
    t = op.operands[0].type
    if not isinstance(t, (MemRefType, UnrankedMemRefType)):
        op_error(
            op, f"operand #0 must be ranked or unranked memref of any type values, but got '{t}'"
        )


define_format(
    "memref.rank",
    "$memref attr-dict `:` type($memref)",
    operands=[Group("memref")],
    results=[Group("result", type=INDEX)],
    verify=_verify_memref_operand,
    traits=(PURE,),
)


define_format(
    "memref.extract_aligned_pointer_as_index",
    "$source attr-dict `:` type($source) `->` type($aligned_pointer)",
    operands=[Group("source")],
    results=[Group("aligned_pointer")],
    verify=_verify_memref_operand,
    traits=(PURE,),
    result_names=lambda op: ["intptr"],
)


def _verify_memory_space_cast(op: Operation) -> None:
    a, b = op.operands[0].type, op.results[0].type
    same_kind = isinstance(a, MemRefType) == isinstance(b, MemRefType)
    if (
        not same_kind
        or not isinstance(a, (MemRefType, UnrankedMemRefType))
        or not isinstance(b, (MemRefType, UnrankedMemRefType))
        or a.element_type != b.element_type
        or (isinstance(a, MemRefType) and (a.shape != b.shape or a.layout != b.layout))
    ):
        op_error(op, f"operand type '{a}' and result type '{b}' are cast incompatible")


define_format(
    "memref.memory_space_cast",
    _CAST,
    operands=[Group("source")],
    results=[Group("dest")],
    verify=_verify_memory_space_cast,
    traits=(PURE,),
    result_names=lambda op: ["memspacecast"],
)


def _verify_realloc(op: Operation) -> None:
    a, b = op.operands[0].type, op.results[0].type
    if not isinstance(a, MemRefType) or len(a.shape) != 1:
        op_error(op, f"operand #0 must be 1D memref of any type values, but got '{a}'")
    if not isinstance(b, MemRefType) or len(b.shape) != 1:
        op_error(op, f"result #0 must be 1D memref of any type values, but got '{b}'")
    if a.element_type != b.element_type:
        op_error(op, "different element types")
    if b.shape[0] == DYNAMIC and len(op.operands) != 2:
        op_error(op, "missing dimension operand")
    if b.shape[0] != DYNAMIC and len(op.operands) != 1:
        op_error(op, "unnecessary dimension operand")


define_format(
    "memref.realloc",
    "$source (`(` $dynamicResultSize^ `)`)? attr-dict `:` type($source) `to` type($result)",
    operands=[Group("source"), Group("dynamicResultSize", OPTIONAL, INDEX)],
    results=[Group("result")],
    properties=("alignment",),
    verify=_verify_realloc,
)


# -- reshape / transpose ------------------------------------------------------------------------------


_ANY_RANK = "ranked or unranked memref of any type values"


def _signless(t: object) -> bool:
    return isinstance(t, IntegerType) and t.signedness == ""


def _verify_reshape(op: Operation) -> None:
    src, shape = (v.type for v in op.operands)
    result = op.results[0].type
    any_memref = (MemRefType, UnrankedMemRefType)
    if not isinstance(src, any_memref):
        op_error(op, f"operand #0 must be {_ANY_RANK}, but got '{src}'")
    if not (
        isinstance(shape, MemRefType)
        and len(shape.shape) == 1
        and (isinstance(shape.element_type, IndexType) or _signless(shape.element_type))
    ):
        op_error(
            op,
            f"operand #1 must be 1D memref of signless integer or index values, but got '{shape}'",
        )
    if not isinstance(result, any_memref):
        op_error(op, f"result #0 must be {_ANY_RANK}, but got '{result}'")
    if src.element_type != result.element_type:
        op_error(op, "element types of source and destination memref types should be the same")
    if isinstance(src, MemRefType) and src.layout:
        op_error(op, "source memref type should have identity affine map")
    shape_size = shape.shape[0] if isinstance(shape, MemRefType) and shape.shape else DYNAMIC
    if isinstance(result, MemRefType):
        if result.layout:
            op_error(op, "result memref type should have identity affine map")
        if shape_size == DYNAMIC:
            op_error(
                op,
                "cannot use shape operand with dynamic length to reshape to "
                "statically-ranked memref type",
            )
        if shape_size != len(result.shape):
            op_error(op, "length of shape operand differs from the result's memref rank")


define_format(
    "memref.reshape",
    "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
    operands=[Group("source"), Group("shape")],
    verify=_verify_reshape,
    traits=(PURE,),
    result_names=lambda op: ["reshape"],
)


def _verify_transpose(op: Operation) -> None:
    permutation = op.properties["permutation"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    t = memref_at(op, "operand", 0, _STRIDED)
    if not permutation.is_permutation():
        op_error(op, "expected a permutation map")
    if permutation.num_dims != len(t.shape):
        op_error(op, "expected a permutation map of same rank as the input")
    layout = strides_and_offset(t)
    if layout is None:
        return
    strides, offset = layout
    order = [r.value for r in permutation.results]
    expected = _canonical_strided(
        t, [t.shape[k] for k in order], [strides[k] for k in order], offset
    )
    result = memref_at(op, "result", 0, _STRIDED)
    result_layout = strides_and_offset(result)
    canonical = result
    if result.layout and result_layout is not None:
        canonical = _canonical_strided(result, result.shape, *result_layout)
    if canonical != expected:
        op_error(
            op,
            f"result type '{canonical}' is not equivalent to the canonical transposed input "
            f"type '{expected}'",
        )


def _canonical_strided(like: MemRefType, shape, strides, offset: int) -> MemRefType:
    """MLIR's ``canonicalizeStridedLayout``: the strided layout as an affine map (dropped
    when it is the identity)."""

    contiguous = [math.prod(shape[k + 1 :]) for k in range(len(shape))]
    if shape and offset == 0 and DYNAMIC not in shape and list(strides) == contiguous:
        return MemRefType(shape, like.element_type, None, like.memory_space)
    layout = StridedLayout(strides, offset).to_affine_map()
    return MemRefType(shape, like.element_type, layout, like.memory_space)


define_format(
    "memref.transpose",
    "$in $permutation attr-dict `:` type($in) `to` type($result)",
    operands=[Group("in")],
    results=[Group("result")],
    shown={"permutation": AFFINE_MAP},
    properties=("permutation",),
    verify=_verify_transpose,
    traits=(PURE,),
    result_names=lambda op: ["transpose"],
)


# -- atomics ---------------------------------------------------------------------------------------

ATOMIC_KINDS = [
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
]  # fmt: skip
_FLOAT_KINDS = ("addf", "maximumf", "minimumf", "mulf")
_INT_KINDS = ("addi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori", "andi")


def _verify_atomic_rmw(op: Operation) -> None:
    kind_attr = op.properties.get("kind")
    if not isinstance(kind_attr, IntegerAttr) or not 0 <= kind_attr.value < len(ATOMIC_KINDS):
        op_error(op, "requires attribute 'kind'")
    value, memref = op.operands[:2]
    t = memref.type
    if not isinstance(t, MemRefType):
        op_error(op, f"operand #1 must be memref of any type values, but got '{t}'")
    if value.type != t.element_type:
        op_error(op, "failed to verify that value type matches element type of memref")
    if op.results[0].type != t.element_type:
        op_error(op, "failed to verify that result type matches element type of memref")
    if len(t.shape) != len(op.operands) - 2:
        op_error(op, "expects the number of subscripts to be equal to memref rank")
    kind = ATOMIC_KINDS[kind_attr.value]
    if kind in _FLOAT_KINDS and not isinstance(value.type, FloatType):
        op_error(op, f"with kind '{kind}' expects a floating-point type")
    if kind in _INT_KINDS and not isinstance(value.type, IntegerType):
        op_error(op, f"with kind '{kind}' expects an integer type")


define_format(
    "memref.atomic_rmw",
    "$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) `,` type($memref) `)` "
    "`->` type($result)",
    operands=[Group("value"), Group("memref", kind=_MEMREF), Group("indices", VARIADIC, INDEX)],
    results=[Group("result")],
    shown={"kind": enum_syntax(ATOMIC_KINDS, "kind")},
    properties=("kind",),
    verify=_verify_atomic_rmw,
)


def _parse_generic_atomic_rmw(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    indices = p.parse_operand_list("[")
    t = p.parse_colon_type_of(MemRefType, "builtin.memref")
    values = [p.resolve(memref, t)] + p.resolve_all(indices, INDEX)
    body = p.parse_region()
    attrs = p.parse_optional_attr_dict()
    return create(
        p, "memref.generic_atomic_rmw", offset, values, [t.element_type], None, attrs, [body]
    )


def _print_generic_atomic_rmw(pr: Printer, op: Operation) -> None:
    memref = op.operands[0]
    pr.write(f" {pr.operand(memref)}[{pr.operands(op.operands[1:])}] : {pr.type(memref.type)} ")
    pr.region(op.regions[0], True, True)
    pr.write(pr.attr_dict(op.attributes))


def _verify_generic_atomic_rmw(op: Operation) -> None:
    region = op.regions[0]
    if len(region.blocks) != 1:
        op_error(op, "expects region #0 to have 0 or 1 blocks")
    block = region.blocks[0]
    if len(block.arguments) != 1 or block.arguments[0].type != op.results[0].type:
        op_error(op, "expected single number of entry block arguments")
    for nested in op.walk():
        if nested is op:
            continue
        d = lookup(nested.name)
        if d is None or not d.has(PURE):
            if nested.name not in ("memref.atomic_yield",):
                op_error(
                    op,
                    "body of 'memref.generic_atomic_rmw' should contain only operations with no side effects",
                )


define(
    "memref.generic_atomic_rmw",
    parse=_parse_generic_atomic_rmw,
    print=_print_generic_atomic_rmw,
    verify=_verify_generic_atomic_rmw,
)


def _verify_atomic_yield(op: Operation) -> None:
    parent = op.parent_op
    assert parent is not None  # checked before (affine.dialects.arity)
    if len(op.operands) != 1 or op.operands[0].type != parent.results[0].type:
        op_error(op, "types mismatch between yield op and its parent")


define_return_like(
    "memref.atomic_yield",
    verify=_verify_atomic_yield,
    traits=(TERMINATOR, PURE),
)


# -- alloca_scope ---------------------------------------------------------------------------------


def _parse_alloca_scope(p: Parser, offset: int) -> Operation:
    result_types = p.parse_optional_arrow_type_list()
    body = p.parse_region()
    if not result_types:
        ensure_terminator(body, "memref.alloca_scope.return", p, offset)
    attrs = p.parse_optional_attr_dict()
    return create(p, "memref.alloca_scope", offset, [], result_types, None, attrs, [body])


def _print_alloca_scope(pr: Printer, op: Operation) -> None:
    pr.write(" ")
    if op.results:
        pr.write(f" -> ({pr.type_list(r.type for r in op.results)})")
    pr.write(" ")
    pr.region(op.regions[0], False, bool(op.results))
    pr.write(pr.attr_dict(op.attributes))


define(
    "memref.alloca_scope",
    parse=_parse_alloca_scope,
    print=_print_alloca_scope,
    traits=(AUTOMATIC_ALLOCATION_SCOPE,),
    implicit_terminator="memref.alloca_scope.return",
)


def _verify_alloca_scope_return(op: Operation) -> None:
    parent = op.parent_op
    assert parent is not None  # checked before (affine.dialects.arity)
    if [v.type for v in op.operands] != [r.type for r in parent.results]:
        op_error(op, "types mismatch between yield op and its parent")


define_return_like(
    "memref.alloca_scope.return",
    verify=_verify_alloca_scope_return,
    traits=(TERMINATOR, PURE),
)


# -- assume_alignment / prefetch / extract_strided_metadata ----------------------------------------


def _verify_assume_alignment(op: Operation) -> None:
    alignment = op.properties.get("alignment")
    if not isinstance(alignment, IntegerAttr) or alignment.value <= 0:
        attribute_constraint_error(
            op,
            "attribute 'alignment' failed to satisfy constraint: 32-bit signless integer "
            "attribute whose value is positive",
        )
    if alignment.value & (alignment.value - 1):
        op_error(op, "alignment must be power of 2")


define_format(
    "memref.assume_alignment",
    "$memref `,` $alignment attr-dict `:` type($memref)",
    operands=[Group("memref", kind=_MEMREF)],
    results=[Group("result", type=same_as("memref"))],
    shown={"alignment": integer_syntax(I32)},
    properties=("alignment",),
    verify=_verify_assume_alignment,
    traits=(PURE,),
    result_names=lambda op: ["assume_align"],
)


def _parse_memref_prefetch(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    indices = p.parse_operand_list("[")
    rw, hint, cache, attrs, t = parse_prefetch_tail(p, attr_dict=False)
    values = [p.resolve(memref, t)] + p.resolve_all(indices, INDEX)
    is_write, locality, is_data = prefetch_flags(p, offset, rw, hint, cache)
    props: dict[str, Attribute] = {
        "isDataCache": is_data,
        "isWrite": is_write,
        "localityHint": locality,
    }
    return create(p, "memref.prefetch", offset, values, [], props, attrs)


def _print_memref_prefetch(pr: Printer, op: Operation) -> None:
    indices = pr.operands(op.operands[1:])
    print_prefetch(pr, op, indices, ("isWrite", "localityHint", "isDataCache"))


def _verify_memref_prefetch(op: Operation) -> None:
    hint = op.properties.get("localityHint")
    if hint is None or not 0 <= hint.value <= 3:  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        attribute_constraint_error(
            op,
            "attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer "
            "attribute whose minimum value is 0 whose maximum value is 3",
        )
    memref = memref_at(op, "operand", 0, "memref of any type values")
    if len(op.operands) - 1 != len(memref.shape):
        op_error(op, "too few indices")


define(
    "memref.prefetch",
    parse=_parse_memref_prefetch,
    print=_print_memref_prefetch,
    verify=_verify_memref_prefetch,
    properties=("isWrite", "localityHint", "isDataCache"),
)


def _strided_metadata_names(op: Operation) -> list[str | None]:
    rank = (len(op.results) - 2) // 2
    names: list[str | None] = ["base_buffer", "offset"]
    if rank:
        names += ["sizes"] + [None] * (rank - 1) + ["strides"] + [None] * (rank - 1)
    return names


define_format(
    "memref.extract_strided_metadata",
    "$source attr-dict `:` type($source) `->` type(results)",
    operands=[Group("source")],
    traits=(PURE,),
    result_names=_strided_metadata_names,
)


# -- strides and offsets (MLIR's getStridesAndOffset), saturated arithmetic ------------------------


def _strided_type(like: MemRefType, shape, strides, offset: int) -> MemRefType:
    return MemRefType(shape, like.element_type, StridedLayout(strides, offset), like.memory_space)


def _is_identity_layout(t: MemRefType) -> bool:
    if not t.layout:
        return True
    if isinstance(t.layout, StridedLayout):
        return _identity_map(t.layout.to_affine_map())
    return all(_identity_map(m) for m in t.layout)


def _identity_map(m) -> bool:
    return m.num_dims == len(m.results) and all(
        r.kind == "dim" and r.value == i for i, r in enumerate(m.results)
    )


# -- offsets / sizes / strides lists ---------------------------------------------------------------


def _verify_offsets_sizes_strides(op: Operation, max_ranks: tuple[int, int, int]) -> None:
    """``OffsetSizeAndStrideOpInterface``: list lengths and non-negative static values."""

    def error(message: str) -> NoReturn:
        raise VerifyError(message, op.loc, op=op)

    props = op.properties
    offsets = props["static_offsets"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    sizes = props["static_sizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    strides = props["static_strides"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    if not (len(offsets) == 1 and max_ranks[0] == 1) and len(offsets) != len(sizes):
        error(
            f"expected mixed offsets rank to match mixed sizes rank ({len(offsets)} vs "
            f"{len(sizes)}) so the rank of the result type is well-formed."
        )
    if len(sizes) != len(strides):
        error(
            f"expected mixed sizes rank to match mixed strides rank ({len(sizes)} vs "
            f"{len(strides)}) so the rank of the result type is well-formed."
        )
    for index, (name, values) in enumerate(
        (("offset", offsets), ("size", sizes), ("stride", strides))
    ):
        if len(values) != max_ranks[index]:
            error(f"expected {max_ranks[index]} {name} values, got {len(values)}")
        dynamic = sum(1 for v in values if v == DYNAMIC)
        if len(segments(op, index + 1)) != dynamic:
            error(f"expected {dynamic} dynamic {name} values")
    for value in offsets:
        if value < 0 and value != DYNAMIC:
            error(f"expected offsets to be non-negative, but got {value}")
    for value in sizes:
        if value < 0 and value != DYNAMIC:
            error(f"expected sizes to be non-negative, but got {value}")


def _verify_reinterpret_cast(op: Operation) -> None:
    source, result = op.operands[0].type, op.results[0].type
    assert isinstance(source, (MemRefType, UnrankedMemRefType))  # the syntax reads a memref
    if not isinstance(result, MemRefType):
        op_error(op, f"result #0 must be memref of any type values, but got '{result}'")
    _verify_offsets_sizes_strides(op, (1, len(result.shape), len(result.shape)))
    if source.memory_space != result.memory_space:
        raise VerifyError(
            f"different memory spaces specified for source type '{source}' and result memref "
            f"type '{result}'",
            op.loc,
            op=op,
        )
    if source.element_type != result.element_type:
        raise VerifyError(
            f"different element types specified for source type '{source}' and result memref "
            f"type '{result}'",
            op.loc,
            op=op,
        )

    def show(v: int) -> str:
        return "dynamic" if v == DYNAMIC else str(v)

    sizes = op.properties["static_sizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    for index, (actual, expected) in enumerate(zip(result.shape, sizes)):
        if actual != DYNAMIC and actual != expected:
            raise VerifyError(
                f"expected result type with size = {show(expected)} instead of {actual} in "
                f"dim = {index}",
                op.loc,
                op=op,
            )
    layout = strides_and_offset(result)
    if layout is None:
        raise VerifyError(
            f"expected result type to have strided layout but found '{result}'", op.loc, op=op
        )
    strides, result_offset = layout
    expected_offset = op.properties["static_offsets"].values[0]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    if result_offset != DYNAMIC and result_offset != expected_offset:
        raise VerifyError(
            f"expected result type with offset = {show(expected_offset)} instead of "
            f"{result_offset}",
            op.loc,
            op=op,
        )
    expected_strides = op.properties["static_strides"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    for index, (actual, expected) in enumerate(zip(strides, expected_strides)):
        if actual != DYNAMIC and actual != expected:
            raise VerifyError(
                f"expected result type with stride = {show(expected)} instead of {actual} in "
                f"dim = {index}",
                op.loc,
                op=op,
            )


define_format(
    "memref.reinterpret_cast",
    "$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, $static_offsets) `` `,` "
    "`sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) `` `,` `strides` `` `:` "
    "custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` type($source) `to` "
    "type($result)",
    operands=_VIEW_OPERANDS,
    results=[Group("result")],
    properties=("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"),
    verify=_verify_reinterpret_cast,
    traits=(PURE,),
    result_names=lambda op: ["reinterpret_cast"],
)


# -- collapse_shape / expand_shape -----------------------------------------------------------------


def _parse_reassociation(p: Parser) -> Attribute:
    """``[[0, 1], [2]]``: the groups of dimensions, as arrays of i64 attributes (read as any
    attribute, then checked, as mlir-opt does)."""
    attr = p.parse_attribute()
    if not _is_reassociation(attr):
        p.error(
            f"'{p.custom_op}' op attribute 'reassociation' failed to satisfy constraint: Array "
            "of 64-bit integer array attributes",
            p.custom_op_at,
        )
    return attr


def _is_reassociation(attr: Attribute) -> bool:
    return isinstance(attr, ArrayAttr) and all(
        isinstance(group, ArrayAttr)
        and all(isinstance(e, IntegerAttr) and e.type == I64 for e in group.elements)
        for group in attr.elements
    )


def _groups(attr: Attribute) -> list[list[int]]:
    return [[e.value for e in group.elements] for group in attr.elements]  # type: ignore[attr-defined]  # reassociation: an array of arrays of integers, by the op's definition


def _reassociation(op: Operation) -> list[list[int]]:
    return _groups(op.properties["reassociation"])


def _show_reassociation(pr: Printer, attr: Attribute) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in _groups(attr)) + "]"


_REASSOCIATION = AttrSyntax(_parse_reassociation, _show_reassociation)


def _verify_collapsed_shape(
    op: Operation, collapsed: tuple[int, ...], expanded: tuple[int, ...], groups: list[list[int]]
) -> None:
    if len(collapsed) != len(groups):
        op_error(
            op,
            f"invalid number of reassociation groups: found {len(groups)}, expected "
            f"{len(collapsed)}",
        )
    next_dim = 0
    for collapsed_dim, group in enumerate(groups):
        found_dynamic = False
        for expanded_dim in group:
            if expanded_dim != next_dim:
                op_error(op, "reassociation indices must be contiguous")
            next_dim += 1
            if expanded_dim >= len(expanded):
                op_error(op, f"reassociation index {expanded_dim} is out of bounds")
            if expanded[expanded_dim] == DYNAMIC:
                found_dynamic = True
        if (collapsed[collapsed_dim] == DYNAMIC) != found_dynamic:
            op_error(
                op,
                f"collapsed dim ({collapsed_dim}) must be dynamic if and only if reassociation "
                "group is dynamic",
            )
        if not found_dynamic:
            size = 1
            for expanded_dim in group:
                size *= expanded[expanded_dim]
            if size != collapsed[collapsed_dim]:
                op_error(
                    op,
                    f"collapsed dim size ({collapsed[collapsed_dim]}) must equal reassociation "
                    f"group size ({size})",
                )
    if not collapsed:
        if any(d != 1 for d in expanded):
            op_error(op, "rank 0 memrefs can only be extended/collapsed with/from ones")
    elif next_dim != len(expanded):
        op_error(
            op,
            f"expanded rank ({len(expanded)}) inconsistent with number of reassociation "
            f"indices ({next_dim})",
        )


def _collapsed_layout(t: MemRefType, groups: list[list[int]]) -> tuple[list[int], int] | None:
    """MLIR's ``computeCollapsedLayoutMap`` (not strict)."""
    layout = strides_and_offset(t)
    if layout is None:
        return None
    strides, offset = layout
    shape = t.shape
    result: list[int] = []
    for group in groups:
        ref = list(group)
        while shape[ref[-1]] == 1 and len(ref) > 1:
            ref.pop()
        if shape[ref[-1]] != DYNAMIC or len(ref) == 1:
            result.append(strides[ref[-1]])
        else:
            result.append(DYNAMIC)
    index = len(result) - 1
    for group in reversed(groups):
        stride = result[index]
        index -= 1
        for dim in reversed(group[1:]):
            stride = saturated_mul(stride, shape[dim])
            source_stride = strides[dim - 1]
            if shape[dim - 1] == 1:
                continue
            if stride != DYNAMIC and source_stride != DYNAMIC and stride != source_stride:
                return None
    return result, offset


def _verify_collapse_shape(op: Operation) -> None:
    source, result = memref_at(op, "operand", 0, _STRIDED), memref_at(op, "result", 0, _STRIDED)
    groups = _reassociation(op)
    _verify_collapsed_shape(op, result.shape, source.shape, groups)
    if _is_identity_layout(source):
        expected = MemRefType(result.shape, source.element_type, None, source.memory_space)
    else:
        layout = _collapsed_layout(source, groups)
        if layout is None:
            op_error(op, "invalid source layout map or collapsing non-contiguous dims")
        expected = _strided_type(source, result.shape, *layout)
    if expected != result:
        op_error(op, f"expected collapsed type to be '{expected}' but found '{result}'")


define_format(
    "memref.collapse_shape",
    "$src $reassociation attr-dict `:` type($src) `into` type($result)",
    operands=[Group("src")],
    results=[Group("result")],
    shown={"reassociation": _REASSOCIATION},
    properties=("reassociation",),
    verify=_verify_collapse_shape,
    traits=(PURE,),
    result_names=lambda op: ["collapse_shape"],
)


def _verify_expand_shape(op: Operation) -> None:
    source, result = memref_at(op, "operand", 0, _STRIDED), memref_at(op, "result", 0, _STRIDED)
    groups = _reassociation(op)
    if len(source.shape) > len(result.shape):
        r0, r1 = len(source.shape), len(result.shape)
        op_error(
            op,
            f"has source rank {r0} and result rank {r1}. This is not an expansion ({r0} > {r1}).",
        )
    _verify_collapsed_shape(op, source.shape, result.shape, groups)
    if _is_identity_layout(source):
        expected = MemRefType(result.shape, source.element_type, None, source.memory_space)
    else:
        layout = strides_and_offset(source)
        if layout is None:
            op_error(op, "invalid source layout map")
        source_strides, source_offset = layout
        reverse: list[int] = []
        shape_index = len(result.shape) - 1
        for group, stride in reversed(list(zip(groups, source_strides))):
            for _ in group:
                reverse.append(stride)
                stride = saturated_mul(stride, result.shape[shape_index])
                shape_index -= 1
        strides = reverse[::-1] + [1] * (len(result.shape) - len(reverse))
        expected = _strided_type(source, result.shape, strides, source_offset)
    if expected != result:
        op_error(op, f"expected expanded type to be '{expected}' but found '{result}'")
    static = op.properties["static_output_shape"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    if len(static) != len(result.shape):
        op_error(
            op,
            "expected number of static shape bounds to be equal to the output rank "
            f"({len(result.shape)}) but found {len(static)} inputs instead",
        )
    dynamic = sum(1 for v in static if v == DYNAMIC)
    if len(op.operands) - 1 != dynamic:
        op_error(
            op,
            "mismatch in dynamic dims in output_shape and static_output_shape: "
            f"static_output_shape has {dynamic} dynamic dims while output_shape has "
            f"{len(op.operands) - 1} values",
        )
    for pos, size in enumerate(result.shape):
        if size != DYNAMIC and size != static[pos]:
            op_error(op, f"invalid output shape provided at pos {pos}")


define_format(
    "memref.expand_shape",
    "$src $reassociation `output_shape` custom<DynamicIndexList>($output_shape, "
    "$static_output_shape) attr-dict `:` type($src) `into` type($result)",
    operands=[Group("src"), Group("output_shape", VARIADIC, INDEX)],
    results=[Group("result")],
    shown={"reassociation": _REASSOCIATION},
    properties=("reassociation", "static_output_shape"),
    verify=_verify_expand_shape,
    traits=(PURE,),
    result_names=lambda op: ["expand_shape"],
)


# -- view -------------------------------------------------------------------------------------------


def _verify_view(op: Operation) -> None:
    base = memref_at(op, "operand", 0, "1D memref of 8-bit signless integer values")
    view = memref_at(op, "result", 0, "memref of any type values")
    if not _is_identity_layout(base):
        raise VerifyError(f"unsupported map for base memref type '{base}'", op.loc, op=op)
    if not _is_identity_layout(view):
        raise VerifyError(f"unsupported map for result memref type '{view}'", op.loc, op=op)
    if base.memory_space != view.memory_space:
        raise VerifyError(
            f"different memory spaces specified for base memref type '{base}' and view memref "
            f"type '{view}'",
            op.loc,
            op=op,
        )
    dynamic = view.num_dynamic_dims
    if len(op.operands) - 2 != dynamic:
        op_error(
            op, f"incorrect number of dynamic sizes, has {len(op.operands) - 2}, expected {dynamic}"
        )


define_format(
    "memref.view",
    "$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) `to` type($result)",
    operands=[Group("source"), Group("byte_shift", type=INDEX), Group("sizes", VARIADIC, INDEX)],
    results=[Group("result")],
    verify=_verify_view,
    traits=(PURE,),
    result_names=lambda op: ["view"],
)


# -- subview, cast and copy verification -----------------------------------------------------------


def _rank_reduction_mask(original: tuple, reduced: tuple) -> set[int] | None:
    unused: set[int] = set()
    j = 0
    for i, size in enumerate(original):
        if j < len(reduced) and size == reduced[j]:
            j += 1
            continue
        unused.add(i)
        if size != 1:
            return None
    return unused if j == len(reduced) else None


def _memref_rank_reduction_mask(
    original: MemRefType, reduced: MemRefType, sizes: tuple
) -> set[int] | None:
    from collections import Counter

    if len(original.shape) == len(reduced.shape):
        return set()
    unused = {i for i, size in enumerate(sizes) if size == 1}
    if len(unused) + len(reduced.shape) == len(original.shape):
        return unused
    a, b = strides_and_offset(original), strides_and_offset(reduced)
    if a is None or b is None:
        return None
    unaccounted = Counter(a[0])
    candidate = Counter(b[0])
    for dim in sorted(unused):
        stride = a[0][dim]
        if unaccounted[stride] > candidate[stride]:
            unaccounted[stride] -= 1
        elif unaccounted[stride] == candidate[stride]:
            unused.discard(dim)
        else:
            return None
    if len(unused) + len(reduced.shape) != len(original.shape):
        return None
    return unused


def _verify_subview(op: Operation) -> None:
    def error(message: str) -> NoReturn:
        raise VerifyError(message, op.loc, op=op)

    base, result = op.operands[0].type, op.results[0].type
    if not isinstance(base, MemRefType) or not isinstance(result, MemRefType):
        op_error(op, "operand and result must be ranked memrefs")
    _verify_offsets_sizes_strides(op, (len(base.shape),) * 3)
    if base.memory_space != result.memory_space:
        error(
            f"different memory spaces specified for base memref type '{base}' and subview "
            f"memref type '{result}'"
        )
    layout = strides_and_offset(base)
    if layout is None:
        error(f"base type '{base}' is not strided")
    props = op.properties
    offsets = props["static_offsets"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    sizes = props["static_sizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    steps = props["static_strides"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    source_strides, source_offset = layout
    target_offset = source_offset
    for o, s in zip(offsets, source_strides):
        target_offset = saturated_add(target_offset, saturated_mul(o, s))
    target_strides = [saturated_mul(s, k) for s, k in zip(source_strides, steps)]
    expected = _strided_type(base, sizes, target_strides, target_offset)
    layout_message = (
        f"expected result type to be '{expected}' or a rank-reduced version. (mismatch of "
        f"result layout), but got '{result}'"
    )
    if expected != result:
        if len(result.shape) > len(expected.shape):
            error(
                "expected result rank to be smaller or equal to the source rank, but got "
                f"'{result}'"
            )
        if _rank_reduction_mask(expected.shape, result.shape) is None:
            error(
                f"expected result type to be '{expected}' or a rank-reduced version. (mismatch "
                f"of result sizes), but got '{result}'"
            )
        if expected.element_type != result.element_type:
            error(
                f"expected result element type to be '{expected.element_type}', but got '{result}'"
            )
    result_layout = strides_and_offset(result)
    if result_layout is None or result_layout[1] != target_offset:
        error(layout_message)
    unused = _memref_rank_reduction_mask(expected, result, sizes)
    if unused is None:
        error(layout_message)
    kept = [s for i, s in enumerate(target_strides) if i not in unused]
    if kept != result_layout[0]:
        error(layout_message)
    for i, size in enumerate(base.shape):
        if size == DYNAMIC or offsets[i] == DYNAMIC:
            continue
        if offsets[i] >= size:
            error(f"offset {i} is out-of-bounds: {offsets[i]} >= {size}")
        if sizes[i] == DYNAMIC or steps[i] == DYNAMIC:
            continue
        last = offsets[i] + (sizes[i] - 1) * steps[i]
        if last >= size:
            error(f"slice along dimension {i} runs out-of-bounds: {last} >= {size}")


def _memref_cast_compatible(a, b) -> bool:
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        if a.element_type != b.element_type:
            return False
        if a.layout != b.layout:
            sa, sb = strides_and_offset(a), strides_and_offset(b)
            if sa is None or sb is None or len(sa[0]) != len(sb[0]):
                return False

            def compatible(x: int, y: int) -> bool:
                return x == DYNAMIC or y == DYNAMIC or x == y

            if not compatible(sa[1], sb[1]):
                return False
            if not all(compatible(x, y) for x, y in zip(sa[0], sb[0])):
                return False
        if a.memory_space != b.memory_space or len(a.shape) != len(b.shape):
            return False
        return all(x == y or DYNAMIC in (x, y) for x, y in zip(a.shape, b.shape))
    kinds = (MemRefType, UnrankedMemRefType)
    if not isinstance(a, kinds) or not isinstance(b, kinds):
        return False
    if isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
        return False
    return a.element_type == b.element_type and a.memory_space == b.memory_space


def _verify_memref_cast_compat(op: Operation) -> None:
    a, b = op.operands[0].type, op.results[0].type
    if not _memref_cast_compatible(a, b):
        op_error(op, f"operand type '{a}' and result type '{b}' are cast incompatible")


def _verify_memref_copy(op: Operation) -> None:
    a, b = (v.type for v in op.operands)
    if not isinstance(a, ShapedType) or not isinstance(b, ShapedType):
        op_error(op, "operands must be memrefs")
    if a.element_type != b.element_type:
        op_error(op, "requires the same element type for all operands")
    if (
        isinstance(a, MemRefType)
        and isinstance(b, MemRefType)
        and (
            len(a.shape) != len(b.shape)
            or any(x != y and DYNAMIC not in (x, y) for x, y in zip(a.shape, b.shape))
        )
    ):
        op_error(op, "requires the same shape for all operands")


define_format(
    "memref.subview",
    "$source `` custom<DynamicIndexList>($offsets, $static_offsets) "
    "custom<DynamicIndexList>($sizes, $static_sizes) "
    "custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` type($source) `to` "
    "type($result)",
    operands=_VIEW_OPERANDS,
    results=[Group("result")],
    properties=("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"),
    verify=_verify_subview,
    traits=(PURE,),
    result_names=lambda op: ["subview"],
)
define_format(
    "memref.cast",
    _CAST,
    operands=[Group("source")],
    results=[Group("dest")],
    verify=_verify_memref_cast_compat,
    traits=(PURE,),
    result_names=lambda op: ["cast"],
)
define_format(
    "memref.copy",
    "$source `,` $target attr-dict `:` type($source) `to` type($target)",
    operands=[Group("source"), Group("target")],
    verify=_verify_memref_copy,
)

__all__ = ["MemRefDmaStart"]
