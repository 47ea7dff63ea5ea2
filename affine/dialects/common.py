"""Helpers shared by the dialect definitions: errors, op construction, simple formats."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, TypeVar, overload

from affine.ir.attributes import (
    AffineMapAttr,
    Attribute,
    DenseArrayAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
)
from affine.ir.core import Operation, Region, Value
from affine.ir.diagnostics import Location, ParseError, VerifyError
from affine.ir.registry import PROPERTIES_IN_ATTRIBUTE_LIST, lookup
from affine.ir.symbols import lookup_nearest_symbol_from
from affine.ir.types import DYNAMIC, I1, I32, INDEX, MemRefType, Type
from affine.syntax.lexer import unescape_string

if TYPE_CHECKING:
    from affine.syntax.parser import Parser
    from affine.syntax.printer import Printer
    from affine.syntax.reader import TokenReader

V = TypeVar("V")  # the value of an attribute

ELEMENT_ACCESSES = (  # the ops that read or write one element or one vector at subscripts
    "affine.load",
    "affine.store",
    "affine.vector_load",
    "affine.vector_store",
    "memref.load",
    "memref.store",
)


class OpView:
    """A typed view: named access to the parts of one operation (``op`` is the wrapped op).

    Subclasses list the op names they accept in ``OP_NAMES``.
    """

    __slots__ = ("op",)
    OP_NAMES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, op: Operation) -> None:
        if self.OP_NAMES and op.name not in self.OP_NAMES:
            raise TypeError(f"expected {self.OP_NAMES[0]}, got {op.name}")
        self.op = op

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.op.name})"


class DmaStartView(OpView):
    """What the views of ``affine.dma_start`` and ``memref.dma_start`` share: the source
    memref first and, for a strided transfer, the stride and the elements per stride last."""

    __slots__ = ()

    @property
    def src(self) -> Value:
        return self.op.operands[0]

    @property
    def is_strided(self) -> bool:
        """Whether the operands end with a stride and a count of elements per stride."""
        raise NotImplementedError

    @property
    def stride(self) -> Value | None:
        return self.op.operands[-2] if self.is_strided else None

    @property
    def elements_per_stride(self) -> Value | None:
        return self.op.operands[-1] if self.is_strided else None


class AttrValue(Generic[V]):
    """A view property: the ``.value``, a ``V``, of the op's (inherent or discardable)
    attribute ``name`` (``AttrValue[AffineMap]("map")``)."""

    def __init__(self, name: str, doc: str = "") -> None:
        self.name = name
        self.__doc__ = doc or f"The ``{name}`` attribute's value."

    @overload
    def __get__(self, view: None, owner: type[OpView]) -> AttrValue[V]: ...

    @overload
    def __get__(self, view: OpView, owner: type[OpView]) -> V: ...

    def __get__(self, view: OpView | None, owner: type[OpView]) -> AttrValue[V] | V:
        if view is None:
            return self
        value: V = view.op.get_attr(self.name).value  # type: ignore[union-attr]  # views are made for ops whose definition requires the attribute, of the class holding a V
        return value


def op_error(
    op: Operation, message: str, notes: Sequence[tuple[str, Location | None]] = ()
) -> NoReturn:
    """Raise ``'op.name' op message`` at the op's location (MLIR's emitOpError), with
    ``notes`` (text, location) attached."""
    raise VerifyError(f"'{op.name}' op {message}", op.loc, notes, op=op)


def attribute_constraint_error(op: Operation, message: str) -> NoReturn:
    """Raise ``'op.name' op attribute ... failed to satisfy constraint`` at the op's location
    without the op: only the generic form can write such a value, and mlir-opt's parser
    rejects it there (verifyInherentAttrs), before the op exists to be shown."""
    raise VerifyError(f"'{op.name}' op {message}", op.loc)


def verify_types_match(
    op: Operation,
    values: Sequence[Value],
    types: Sequence[Type],
    count_message: str,
    type_message: Callable[[int, Type, Type], str],
    prefix: bool = True,
    notes: Sequence[tuple[str, Location | None]] = (),
) -> None:
    """``values`` are as many as ``types`` and each has the type at its position; otherwise
    MLIR's error at ``op``: ``count_message``, or ``type_message(i, value type, type)`` for
    the first that differs (after the op's name like the other unless ``prefix`` is False),
    with ``notes`` attached."""
    if len(values) != len(types):
        op_error(op, count_message, notes)
    for i, (v, t) in enumerate(zip(values, types)):
        if v.type != t:
            message = type_message(i, v.type, t)
            text = f"'{op.name}' op {message}" if prefix else message
            raise VerifyError(text, op.loc, notes, op=op)


def memref_at(
    op: Operation, role: str, index: int, constraint: str = "memref of any type values"
) -> MemRefType:
    """The type of the op's ``role`` (``operand`` or ``result``) number ``index``, which the
    op's definition constrains to a memref (mlir-opt's error, in its words, otherwise)."""
    value = (op.operands if role == "operand" else op.results)[index]
    if not isinstance(value.type, MemRefType):
        op_error(op, f"{role} #{index} must be {constraint}, but got '{value.type}'")
    return value.type


def create(
    p: Parser,
    name: str,
    offset: int,
    operands: Sequence[Value] = (),
    result_types: Sequence[Type] = (),
    properties: Mapping[str, Attribute] | None = None,
    attributes: Mapping[str, Attribute] | None = None,
    regions: Sequence[Region] = (),
    successors=(),
) -> Operation:
    """The op a custom parser read; an entry of its attribute dictionary that names a
    property sets it, as in mlir-opt (or is refused where MLIR's parser has already put
    that property in the attribute list)."""
    op_def = lookup(name)
    if attributes and op_def is not None:
        named = [key for key in attributes if key in op_def.properties]
        if named:
            if op_def.has(PROPERTIES_IN_ATTRIBUTE_LIST) and properties:
                repeated = next((key for key in named if key in properties), None)
                if repeated is not None:
                    p.op_error(
                        f"attribute '{repeated}' occurs more than once in the attribute list",
                        offset,
                    )
            properties = {**(properties or {}), **{key: attributes[key] for key in named}}
            attributes = {k: v for k, v in attributes.items() if k not in named}
    return Operation.create(
        name,
        operands,
        result_types,
        properties,
        attributes,
        list(regions),
        successors,
        p.loc(offset),
    )


def segment_sizes(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr(I32, sizes)


def segments(op: Operation, index: int) -> list[Value]:
    """Operands of segment ``index`` according to ``operandSegmentSizes``."""
    sizes = op.properties["operandSegmentSizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    start = sum(sizes[:index])
    return op.operands[start : start + sizes[index]]


def string_value(op: Operation, name: str) -> str | None:
    a = op.get_attr(name)
    return a.value if isinstance(a, StringAttr) else None


# -- flags attributes of arith/math (#arith.fastmath<...>, #arith.overflow<...>) ----------------

FASTMATH_NONE = OpaqueAttr("#arith.fastmath<none>")
OVERFLOW_NONE = OpaqueAttr("#arith.overflow<none>")


# keyword -> (MLIR enum name, its attribute's name, flags in bit order, separator mlir-opt
# prints between them)
_FLAG_ENUMS = {
    "fastmath": (
        "FastMathFlags",
        "Arith_FastMathAttr",
        ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"),
        ",",
    ),
    "overflow": ("IntegerOverflowFlags", "Arith_IntegerOverflowAttr", ("nsw", "nuw"), ", "),
}


def parse_optional_flags(p: Parser, keyword: str, dialect_name: str) -> OpaqueAttr | None:
    """``fastmath<nnan,ninf>`` / ``overflow<nsw>`` after the operands of arith/math ops,
    kept in mlir-opt's canonical spelling (see :func:`parse_flags`)."""
    if not p.at_keyword(keyword):
        return None
    p.advance()
    return OpaqueAttr(f"#arith.{dialect_name}<{parse_flags(p, keyword)}>")


def parse_enum_keywords(
    p: TokenReader, enum: str, attribute: str, allowed: Sequence[str], bits: bool = False
) -> list[str]:
    """The value of an MLIR enum attribute: a keyword or string among ``allowed``, or for a
    bit enum (``bits``) a comma-separated list of them. A wrong one gets mlir-opt's two
    errors: the enum's (at the value's start), then the attribute's (at the next token)."""
    start = p.start
    failed = f"failed to parse {attribute} parameter 'value' which is to be a `{enum}`"
    words: list[str] = []
    while True:
        if p.kind not in ("id", "str"):
            p.op_error("expected valid keyword or string", followed_by=[(failed, p.start)])
        word = p.tok if p.kind == "id" else unescape_string(p.tok)
        p.advance()
        if word not in allowed:
            message = f"expected {enum} to be one of: {', '.join(allowed)}"
            p.op_error(message, start, followed_by=[(failed, p.start)])
        words.append(word)
        if not (bits and p.accept(",")):
            return words


def parse_flags(p: TokenReader, keyword: str) -> str:
    """The flags ``<nnan,ninf>`` after ``keyword`` (``fastmath`` or ``overflow``) in
    mlir-opt's canonical spelling: flags in bit order, all fastmath flags ``fast``."""
    enum, attribute, names, separator = _FLAG_ENUMS[keyword]
    every = ("none", *names, "fast") if keyword == "fastmath" else ("none", *names)
    p.expect("<")
    chosen: set[str] = set()
    for word in parse_enum_keywords(p, f"::mlir::arith::{enum}", attribute, every, bits=True):
        chosen.update(names if word == "fast" else () if word == "none" else (word,))
    p.expect(">")
    if keyword == "fastmath" and chosen == set(names):
        return "fast"
    return separator.join(n for n in names if n in chosen) or "none"


def print_flags(op: Operation, name: str, keyword: str) -> str:
    attr = op.properties.get(name)
    if not isinstance(attr, OpaqueAttr) or attr.body == "none":
        return ""
    return f" {keyword}<{attr.body}>"


def print_results_types_suffix(pr: Printer, op: Operation) -> str:
    return pr.type_list(r.type for r in op.results)


def parse_dma_start(
    p: Parser,
    offset: int,
    name: str,
    affine_subscripts: bool,
    count_first: bool,
    types_message: str,
) -> Operation:
    """``src[..], dst[..], tag[..], count`` (``count, tag[..]`` when ``count_first``) then
    optional ``, stride, per_stride`` and ``: src_type, dst_type, tag_type``.

    Subscripts are affine expressions of SSA ids (kept as ``src_map``/``dst_map``/``tag_map``
    attributes) when ``affine_subscripts``, else plain index operands. The operand order of
    the created op is MLIR's: ``memref.dma_start`` has the count before the tag,
    ``affine.dma_start`` after it.
    """

    def subscripts() -> tuple[Any, list]:
        if affine_subscripts:
            return p.parse_affine_map_of_ssa_ids()
        return None, p.parse_operand_list("[", " in operand list")

    src = p.parse_operand()
    src_map, src_idx = subscripts()
    p.expect(",")
    dst = p.parse_operand()
    dst_map, dst_idx = subscripts()
    p.expect(",")
    if count_first:
        num = p.parse_operand()
        p.expect(",")
        tag = p.parse_operand()
        tag_map, tag_idx = subscripts()
    else:
        tag = p.parse_operand()
        tag_map, tag_idx = subscripts()
        p.expect(",")
        num = p.parse_operand()
    # MLIR's trailing operand list: a comma, then zero or more operands
    strides = p.parse_operand_list() if p.accept(",") else []
    if strides and len(strides) != 2:
        p.op_error("expected two stride related operands", offset)
    types = p.parse_colon_type_list()
    if len(types) != 3:
        p.op_error(types_message, offset)
    count = [p.resolve(num, INDEX)]
    tag_part = [p.resolve(tag, types[2]), *p.resolve_all(tag_idx, INDEX)]
    values = (
        [p.resolve(src, types[0]), *p.resolve_all(src_idx, INDEX)]
        + [p.resolve(dst, types[1]), *p.resolve_all(dst_idx, INDEX)]
        + (count + tag_part if name == "memref.dma_start" else tag_part + count)
        + p.resolve_all(strides, INDEX)
    )
    attrs = None
    if affine_subscripts:
        attrs = {
            "src_map": AffineMapAttr(src_map),
            "dst_map": AffineMapAttr(dst_map),
            "tag_map": AffineMapAttr(tag_map),
        }
    return create(p, name, offset, values, [], None, attrs)


# -- static/dynamic index lists (MLIR's parseDynamicIndexList / printDynamicIndexList) -----------

_DELIMITERS = {"[": "]", "(": ")"}


def parse_dynamic_index_list(
    p: Parser, open_: str = "["
) -> tuple[list[int], list[tuple[Value, int]]]:
    """``[0, %i, 4]`` (or ``(...)``): the static values, ``DYNAMIC`` where an SSA operand is
    given, and those operands (with their offsets) in order."""
    dynamic: list[tuple[Value, int]] = []

    def entry() -> int:
        if p.at("%"):
            dynamic.append(p.parse_operand())
            return DYNAMIC
        return p.parse_op_integer()

    try:
        return p.parse_comma_list(open_, entry, " in dynamic index list"), dynamic
    except ParseError as error:
        p.add_op_error(error, "expected SSA value or integer")
        raise


def print_dynamic_index_list(
    pr: Printer, static: Sequence[int], dynamic: Sequence[Value], open_: str = "["
) -> str:
    """The text :func:`parse_dynamic_index_list` reads back."""
    it = iter(dynamic)
    items = ", ".join(pr.operand(next(it)) if v == DYNAMIC else str(v) for v in static)
    return open_ + items + _DELIMITERS[open_]


def referenced_symbol(
    op: Operation, attribute: str, kind: str, missing: str, not_found: str
) -> Operation:
    """The ``kind`` op that ``op``'s symbol reference ``attribute`` names, looked up from
    ``op`` (MLIR's verifySymbolUses); a VerifyError at ``op`` saying ``missing`` when the
    reference is absent and ``not_found`` (``{name}`` is the symbol) when it names no such
    op."""
    ref = op.properties.get(attribute)
    if not isinstance(ref, SymbolRefAttr):
        op_error(op, missing)
    target = lookup_nearest_symbol_from(op, ref.leaf)
    if target is None or target.name != kind:
        op_error(op, not_found.format(name=ref.leaf))
    return target


# -- the prefetch syntax shared by affine.prefetch and memref.prefetch ---------------------------


def parse_integer_attribute(p: Parser, t: Type) -> IntegerAttr:
    """An integer attribute of type ``t`` (written without its type), read as mlir-opt's
    custom parsers read an attribute of a given type."""
    start = p.start
    attr = p.parse_attribute(t)
    if not isinstance(attr, IntegerAttr):
        p.op_error("invalid kind of attribute specified", start)
    return attr


def parse_prefetch_tail(
    p: Parser, attr_dict: bool
) -> tuple[str, int, str, dict[str, Attribute], Type]:
    """``, read|write, locality<N>, data|instr {attrs} : memref<...>`` after the indices
    (``{attrs}`` only with ``attr_dict``: memref.prefetch's syntax has none): the words as
    written (checked by :func:`prefetch_flags`), the attributes and the type."""
    p.expect(",")
    rw = p.parse_keyword()
    p.expect(",")
    p.expect_op_keyword("locality")
    p.expect("<")
    hint = parse_integer_attribute(p, I32).value
    p.expect(">")
    p.expect(",")
    cache = p.parse_keyword()
    attrs = p.parse_optional_attr_dict() if attr_dict else {}
    t = p.parse_colon_type_of(MemRefType, "builtin.memref", True)
    return rw, hint, cache, attrs, t


def prefetch_flags(
    p: Parser, offset: int, rw: str, hint: int, cache: str
) -> tuple[IntegerAttr, IntegerAttr, IntegerAttr]:
    """``isWrite``, ``localityHint`` and ``isDataCache``; an error at the op for words that
    are not ``read``/``write`` and ``data``/``instr``."""
    if rw not in ("read", "write"):
        p.op_error("rw specifier has to be 'read' or 'write'", offset)
    if cache not in ("data", "instr"):
        p.op_error("cache type has to be 'data' or 'instr'", offset)
    return (
        IntegerAttr(1 if rw == "write" else 0, I1),
        IntegerAttr(hint, I32),
        IntegerAttr(1 if cache == "data" else 0, I1),
    )


def print_dma_start_tail(pr: Printer, view: DmaStartView, dst: Value, tag: Value) -> None:
    """``, stride, count`` of a strided transfer, then `` : src_type, dst_type, tag_type``."""
    stride, count = view.stride, view.elements_per_stride  # both present for a strided transfer
    if stride is not None and count is not None:
        pr.write(f", {pr.operand(stride)}, {pr.operand(count)}")
    pr.write(f" : {pr.type(view.src.type)}, {pr.type(dst.type)}, {pr.type(tag.type)}")


def print_prefetch(pr: Printer, op: Operation, indices: str, elided: tuple[str, ...]) -> None:
    """`` %m[indices], read|write, locality<N>, data|instr {attrs} : type``."""
    props = op.properties
    rw = "write" if attr_value_of(props["isWrite"]) else "read"
    cache = "data" if attr_value_of(props["isDataCache"]) else "instr"
    hint = attr_value_of(props["localityHint"])
    pr.write(f" {pr.operand(op.operands[0])}[{indices}], {rw}, locality<{hint}>, {cache}")
    pr.write(pr.attr_dict(op.attributes, elided))
    pr.write(" : " + pr.type(op.operands[0].type))


def attr_value_of(attr: Attribute) -> int:
    """The value of an integer attribute the op's definition requires."""
    assert isinstance(attr, IntegerAttr)
    return attr.value
