"""Reader for MLIR text: modern MLIR (pretty and generic form, as mlir-opt 22 prints it) and
the 2018-19 syntax of the seed specification, recognised construct by construct.

Entry points: :func:`parse_module` (text to a :class:`~affine.ir.core.Module`) and
:func:`parse_type`, :func:`parse_attribute`, :func:`parse_affine_map`,
:func:`parse_integer_set` for single values.  Errors raise
:class:`~affine.ir.diagnostics.ParseError` with the location of the offending token.

The reader is layered by section: :mod:`affine.syntax.reader` (tokens, integers, errors),
:mod:`affine.syntax.affine_syntax` (affine expressions, maps and sets) and this module
(types, attributes, SSA values, operations and regions, and the entry points).

Custom op syntax lives with each op in :mod:`affine.dialects`; the methods of
:class:`Parser` under "custom syntax helpers" are the vocabulary those parsers use
(operands, types, attribute dictionaries, affine maps of SSA ids, regions).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NoReturn, Protocol, TypeVar, overload

from affine.errors import PolyError
from affine.ir.attributes import (
    UNIT,
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerSetAttr,
    LocationAttr,
    OpaqueAttr,
    SparseElementsAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from affine.ir.core import Block, BlockArgument, Module, Operation, Region, Value
from affine.ir.diagnostics import ParseError
from affine.ir.hooks import Hook
from affine.ir.registry import ISOLATED, MLIR_OPT_DIALECTS, TERMINATOR, OpDef, lookup
from affine.ir.types import (
    DYNAMIC,
    F64,
    FLOAT_WIDTHS,
    I1,
    I64,
    INDEX,
    NONE,
    ComplexType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    OpaqueType,
    StridedLayout,
    TensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, dim, symbol
from affine.math.float_formats import SEMANTICS
from affine.math.integer_set import IntegerSet
from affine.syntax.affine_syntax import AffineSyntaxReader, _name_resolver
from affine.syntax.lexer import balanced_end, lex, unescape_string
from affine.syntax.printer import attr_to_str, type_to_str
from affine.syntax.reader import _int_value

_INT_TYPE = re.compile(r"(s|u)?i([0-9]+)$")
_DIMS = re.compile(r"\s*((?:(?:[0-9]+|\?|\[[0-9]+\])\s*x\s*)*)")
_DIM_ITEM = re.compile(r"([0-9]+|\?|\[[0-9]+\])\s*x")
_SIMPLE_SHAPED = re.compile(
    r"(memref|tensor|vector)<((?:(?:[0-9]+|\?)x)*)(index|[su]?i[0-9]+|f16|bf16|f32|f64)>"
)
_MAX_INT_WIDTH = 16777215  # MLIR's IntegerType::kMaxWidth
_MAX_INT64 = 2**63 - 1
_NOT_TENSOR_ELEMENTS = (
    TensorType,
    MemRefType,
    UnrankedMemRefType,
    TupleType,
    FunctionType,
    NoneType,
)
# Builtin memref elements; dialect types are taken on trust (mlir-opt asks their dialect).
_MEMREF_ELEMENTS = (
    IntegerType,
    IndexType,
    FloatType,
    ComplexType,
    VectorType,
    MemRefType,
    UnrankedMemRefType,
    OpaqueType,
)
_MEMORY_SPACES = (IntegerAttr, StringAttr, DictionaryAttr, OpaqueAttr)

T = TypeVar("T")
E = TypeVar("E")  # an element of a comma list
TypeClass = TypeVar("TypeClass", bound=Type)  # a class of types a custom syntax requires


class ForwardRef(Value):
    """A use of an SSA name before its definition; replaced when the name is defined."""

    __slots__ = ("offset", "ops")

    type: Type | None  # type: ignore[assignment]  # None until a use states it (Parser.resolve)

    def __init__(self, name: str, offset: int) -> None:
        self.type = None
        self.name = name
        self.offset = offset
        self.ops: list[Operation] = []

    @property
    def parent_block(self) -> None:
        return None


class _Isolated:
    """Name scope of one isolated-from-above region tree."""

    __slots__ = ("forward", "layers")

    def __init__(self) -> None:
        self.layers: list[dict[str, list[Value]]] = [{}]
        self.forward: dict[tuple[str, int], ForwardRef] = {}


class _RegionBlocks:
    """Block names of one region being parsed."""

    __slots__ = ("defined", "forward")

    def __init__(self) -> None:
        self.defined: dict[str, Block] = {}
        self.forward: dict[str, tuple[Block, int]] = {}


_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+")


class Parser(AffineSyntaxReader):
    """Recursive-descent reader over one source buffer: types, attributes and operations
    over the token and affine layers (:mod:`affine.syntax.reader`,
    :mod:`affine.syntax.affine_syntax`)."""

    def __init__(self, text: str, name: str = "<input>", line_offset: int = 0) -> None:
        super().__init__(text, name, line_offset)
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Type] = {}
        self.deferred_aliases: dict[str, int] = {}  # '#loc' aliases used before definition
        self.type_cache: dict[str, Type] = {}
        self.scopes: list[_Isolated] = []
        self.region_blocks: list[_RegionBlocks] = []
        self.default_dialects: list[str] = ["builtin"]
        self.pending_forward = 0
        self.seed_ops: list[Operation] = []  # ops read from seed syntax, rewritten afterwards
        self.pre_ops: list[Operation] = []  # ops a custom parser adds before the current op
        self.seed_functions = 0  # depth of seed-syntax `func @f` bodies being read
        # symbols of the last identity layout (composition) a memref type dropped, as MLIR
        # does; a seed ``alloc`` then drops the operands bound to them
        self.dropped_layout_symbols: int | None = None

    # -- types ----------------------------------------------------------------------------

    def parse_type(self) -> Type:
        kind = self.kind
        if kind == "id":
            word = self.text[self.start : self.end]
            simple = _SIMPLE_TYPES.get(word)
            if simple is not None:
                self.advance()
                return simple
            if word in ("memref", "tensor", "vector"):
                m = _SIMPLE_SHAPED.match(self.text, self.start)
                if m:
                    key = m.group(0)
                    cached = self.type_cache.get(key)
                    if cached is None:
                        cached = self._parse_shaped(word)
                        self.type_cache[key] = cached
                        return cached
                    self.reset(m.end())
                    return cached
                return self._parse_shaped(word)
            m = _INT_TYPE.match(word)
            if m:
                width = int(m.group(2))
                if width >= 2**32:
                    self.error("invalid integer width")
                if width > _MAX_INT_WIDTH:
                    self.error(f"integer bitwidth is limited to {_MAX_INT_WIDTH} bits")
                self.advance()
                return IntegerType(width, m.group(1) or "")
            if word in FLOAT_WIDTHS:
                self.advance()
                return FloatType(word)
            if word == "tuple":
                self._enter()
                self.advance()
                self.expect("<", " in tuple type")
                types: list[Type] = []
                if not self.accept(">"):
                    types = self.parse_type_list_no_parens()
                    self.expect(">", " in tuple type")
                self._leave()
                return TupleType(types)
            if word == "complex":
                self._enter()
                self.advance()
                self.expect("<", " in complex type")
                element_offset = self.start
                element = self.parse_type()
                self.expect(">", " in complex type")
                self._leave()
                if not isinstance(element, (IntegerType, FloatType)):
                    self.error("invalid element type for complex", element_offset)
                return ComplexType(element)
            if word == "type" and self.text.startswith("type", self.start):
                self.error("expected type")
            self.wrong_token("expected non-function type")
        if kind == "(":
            return self.parse_function_type()
        if kind == "!":
            return self._parse_bang_type()
        self.wrong_token("expected non-function type")

    def parse_function_type(self) -> FunctionType:
        self._enter()
        self.expect("(")
        inputs: list[Type] = []
        if not self.accept(")"):
            inputs = self.parse_type_list_no_parens()
            self.expect(")", " in function type")
        self.expect("->", " in function type")
        result = FunctionType(inputs, self.parse_function_result_types())
        self._leave()
        return result

    def parse_function_result_types(self) -> list[Type]:
        if self.kind == "(":
            state = self.save()
            self.advance()
            if self.accept(")"):
                return []
            types = self.parse_type_list_no_parens()
            if self.accept(")"):
                if self.kind == "->":  # the result is itself a function type
                    self.restore(state)
                    return [self.parse_type()]
                return types
            self.restore(state)
        return [self.parse_type()]

    def parse_type_list_no_parens(self) -> list[Type]:
        types = [self.parse_type()]
        while self.accept(","):
            types.append(self.parse_type())
        return types

    def _parse_dialect_symbol(self, aliases: Mapping[str, T]) -> str | T:
        """A ``!``/``#`` symbol: its text for a dialect type or attribute (written ``ns<...>``
        or ``ns.id``, in its pretty form), the alias's value for an alias."""
        name = self.tok
        start = self.start
        if self.text.startswith("<", self.end):
            end = self._balanced_end()
            text = _pretty_dialect_symbol(self._expand_aliases_in(self.text[start:end]))
            self.reset(end)
            return text
        self.advance()
        alias = aliases.get(name[1:])
        if alias is not None:
            return alias
        if "." not in name:
            self.error(f"undefined symbol alias id '{name[1:]}'", start + len(name))
        return name

    def _parse_bang_type(self) -> Type:
        symbol = self._parse_dialect_symbol(self.type_aliases)
        return OpaqueType(symbol) if isinstance(symbol, str) else symbol

    def _parse_dims(self, word: str) -> tuple[list[int] | None, list[bool]]:
        """Dimension list after ``<`` of a shaped type; ``None`` for ``*x`` (unranked).
        Sizes beyond int64 are 'invalid dimension'; a vector has no ``?`` sizes."""
        pos = self.end
        text = self.text
        m = re.compile(r"\s*\*\s*x").match(text, pos)
        if m:
            if word == "vector":
                self.error("expected non-function type", text.index("*", pos))
            self.reset(m.end())
            return None, []
        m = _DIMS.match(text, pos)
        assert m is not None  # _DIMS matches the empty string
        shape: list[int] = []
        scalable: list[bool] = []
        for item in _DIM_ITEM.finditer(m.group(1)):
            token = item.group(1)
            offset = m.start(1) + item.start(1)
            if token == "?":
                if word == "vector":
                    self.error("expected non-function type", offset)
                shape.append(DYNAMIC)
                scalable.append(False)
                continue
            size = int(token.strip("[]"))
            if size > _MAX_INT64:
                self.error("invalid dimension", offset + token.startswith("["))
            shape.append(size)
            scalable.append(token.startswith("["))
        kind, token_start, _ = lex(text, m.end())
        if kind == "int" or text.startswith("?", token_start):
            self.reset(token_start)
            self.advance()
            self.wrong_token("expected 'x' in dimension list")
        self.reset(m.end())
        return shape, scalable

    def _parse_shaped(self, word: str) -> Type:
        type_offset = self.start
        self._enter()
        self.advance()
        if self.kind != "<":
            self.wrong_token(f"expected '<' in {word} type")
        shape, scalable = self._parse_dims(word)
        element_offset = self.start
        element = self.parse_type()
        if word == "vector":
            self.expect(">", " in vector type")
            self._leave()
            assert shape is not None
            if not isinstance(element, (IntegerType, IndexType, FloatType)):
                self.error(
                    "failed to verify 'elementType': VectorElementTypeInterface instance",
                    type_offset,
                )
            if any(s <= 0 for s in shape):
                sizes = ", ".join(map(str, shape))
                self.error(
                    f"vector types must have positive constant sizes but got {sizes}", type_offset
                )
            return VectorType(shape, element, scalable if any(scalable) else None)
        if word == "tensor":
            encoding = None
            if self.accept(","):
                encoding = self.parse_attribute()
            self.expect(">", " in tensor type")
            self._leave()
            if isinstance(element, _NOT_TENSOR_ELEMENTS):
                self.error("invalid tensor element type", element_offset)
            if shape is None and encoding is not None:
                self.error("cannot apply encoding to unranked tensor")
            return TensorType(shape, element, encoding)
        return self._parse_memref_rest(type_offset, shape, element, element_offset)

    def _parse_memref_rest(
        self, type_offset: int, shape: list[int] | None, element: Type, element_offset: int
    ) -> Type:
        """The rest of ``memref<shape x element`` with mlir-opt's checks: layouts (maps or
        ``strided``), then at most one memory space, which is last."""
        if not isinstance(element, _MEMREF_ELEMENTS):
            self.error("invalid memref element type", element_offset)
        layout: list[AffineMap] = []
        strided: StridedLayout | None = None
        memory_space: Attribute | None = None
        if not self.at(">") and not self.at(","):
            self.wrong_token("expected ',' or '>' in memref type")
        if self.at(",") and lex(self.text, self.end)[0] == ">":
            self.advance()
            self.wrong_token("expected list element")
        while self.accept(","):
            if self.kind == "(":  # seed syntax: inline (semi-)affine map
                layout.append(self._parse_seed_map_or_set(want="map"))
                continue
            item_start = self.start
            attr: Attribute | None = None
            if self.at_keyword("strided"):
                strided = self._parse_strided()
            elif (
                self.kind == "id"
                and self.tok not in ("affine_map", "true", "false", "unit")
                and not self._word_starts_type(self.tok)
            ):
                attr = StringAttr(self.tok)  # seed syntax: a named memory space (`hbm`)
                self.advance()
            else:
                attr = self.parse_attribute()
                if isinstance(attr, AffineMapAttr):
                    if strided is not None:
                        self.error(
                            "a memref cannot have both a strided layout and a map", item_start
                        )
                    layout.append(attr.value)
                    attr = None
            if attr is not None:
                if memory_space is not None:
                    self.error("multiple memory spaces specified in memref type")
                memory_space = attr
                continue
            if shape is None:
                self.error("cannot have affine map for unranked memref type")
            if memory_space is not None:
                self.error("expected memory space to be last in memref type")
        if not self.accept(">"):
            self.wrong_token("expected ',' or '>'")
        self._leave()
        if memory_space is not None and not isinstance(memory_space, _MEMORY_SPACES):
            self.error("unsupported memory space Attribute", type_offset)
        if shape is None:
            return UnrankedMemRefType(element, memory_space)
        if layout and layout[0].num_dims != len(shape):
            self.error(
                f"memref layout mismatch between rank and affine map: {len(shape)} != "
                f"{layout[0].num_dims}",
                type_offset,
            )
        if strided is not None and len(strided.strides) != len(shape):
            self.error("expected the number of strides to match the rank", type_offset)
        if isinstance(memory_space, IntegerAttr) and memory_space.type == I64:
            if memory_space.value == 0:
                memory_space = None
        result = MemRefType(
            shape, element, strided if strided is not None else tuple(layout), memory_space
        )
        if layout and not result.layout:
            self.dropped_layout_symbols = sum(m.num_symbols for m in layout)
        return result

    def _parse_strided(self) -> StridedLayout:
        self.advance()
        self.expect("<", " after 'strided'")
        self.expect("[")
        strides: list[int] = []
        if not self.at("]"):
            strides.append(self._parse_stride_or_offset())
            while self.accept(","):
                strides.append(self._parse_stride_or_offset())
        self.expect("]")
        offset = 0
        if not self.accept(">"):
            self.expect(",")
            if not self.accept_keyword("offset"):
                self.wrong_token("expected 'offset' after comma")
            self.expect(":", " after 'offset'")
            offset = self._parse_stride_or_offset()
            self.expect(">")
        return StridedLayout(strides, offset)

    def _parse_stride_or_offset(self) -> int:
        """``?`` or an integer within int64 (mlir-opt's words otherwise)."""
        if self.accept("?"):
            return DYNAMIC
        offset = self.start
        negative = self.accept("-")
        if self.kind != "int" or _int_value(self.tok) > _MAX_INT64:
            self.error("expected a 64-bit signed integer or '?'", offset)
        value = _int_value(self.tok)
        self.advance()
        return -value if negative else value

    # -- attributes -----------------------------------------------------------------------

    def parse_attribute(self, type_hint: Type | None = None) -> Attribute:
        kind = self.kind
        if kind == "id":
            word = self.tok
            if word == "affine_map" or word == "affine_set":
                what = " in affine map" if word == "affine_map" else " in integer set"
                self.advance()
                self.expect("<", what)
                body_start = self.start
                result = self._parse_map_or_set_body()
                if isinstance(result, AffineMap) != (word == "affine_map"):
                    wanted, got = ("AffineMap", "IntegerSet")[:: 1 if word == "affine_map" else -1]
                    self.error(f"expected {wanted}, but got {got}", body_start)
                self.expect(">", what)
                if isinstance(result, AffineMap):
                    return AffineMapAttr(result)
                return IntegerSetAttr(result)
            if word == "true" or word == "false":
                self.advance()
                return IntegerAttr(1 if word == "true" else 0, I1)
            if word == "unit":
                self.advance()
                return UNIT
            if word == "dense":
                return self._parse_dense(type_hint)
            if word == "array":
                return self._parse_dense_array()
            if word == "loc":
                return self._parse_location()
            if word == "dense_resource":
                return self._parse_dense_resource()
            if word == "sparse":
                return self._parse_sparse()
            if word in ("opaque", "distinct"):
                return self._parse_opaque_keyword_attr()
            if word == "strided":
                return OpaqueAttr(self._raw_balanced_after_keyword())
            if not self._word_starts_type(word):
                self.wrong_token("expected attribute value")
            return TypeAttr(self.parse_type())
        if kind == "int" or kind == "float" or kind == "-":
            return self._parse_number_attr(type_hint)
        if kind == "str":
            value = unescape_string(self.tok)
            self.advance()
            if self.accept(":"):
                return StringAttr(value, self.parse_type())
            return StringAttr(value)
        if kind == "[":
            self._enter()
            self.advance()
            elements: list[Attribute] = []
            if not self.accept("]"):
                while True:
                    elements.append(self.parse_attribute())
                    if not self.accept(","):
                        break
                self.expect("]", " in array attribute")
            self._leave()
            return ArrayAttr(elements)
        if kind == "{":
            return self.parse_attr_dict()
        if kind == "@":
            return self._parse_symbol_ref()
        if kind == "#":
            return self._parse_hash_attr()
        if kind == "(" or kind == "!":
            if kind == "(":
                state = self.save()
                try:
                    return TypeAttr(self.parse_type())
                except ParseError:
                    self.restore(state)
                    result = self._parse_seed_map_or_set()
                    if isinstance(result, AffineMap):
                        return AffineMapAttr(result)
                    return IntegerSetAttr(result)
            return TypeAttr(self.parse_type())
        self.wrong_token("expected attribute value")

    def _parse_number_attr(self, type_hint: Type | None) -> Attribute:
        negative = self.accept("-")
        if self.kind == "int":
            text = self.tok
            offset = self.start
            self.advance()
            attr_type: Type = (
                type_hint if isinstance(type_hint, (IntegerType, type(INDEX))) else I64
            )
            if self.accept(":"):
                attr_type = self.parse_type()
            if isinstance(attr_type, FloatType):
                bits = self._float_bits_of_integer(text, negative, offset, attr_type)
                return FloatAttr.from_bits(bits, attr_type)
            value = _int_value(text)
            self._check_integer_range(value, negative, attr_type, offset)
            return IntegerAttr(-value if negative else value, attr_type)
        if self.kind == "float":
            value_f = float(self.tok)
            self.advance()
            if negative:
                value_f = -value_f
            float_type = F64
            if self.accept(":"):
                written = self.parse_type()
                if not isinstance(written, FloatType):
                    self.error("floating point value not valid for specified type")
                float_type = written
            return FloatAttr(value_f, float_type)
        self.error("expected constant integer or floating point value")

    @staticmethod
    def _word_starts_type(word: str) -> bool:
        """Whether a bare word can begin a builtin type (else it is no attribute at all)."""
        return (
            word in _SIMPLE_TYPES
            or word in FLOAT_WIDTHS
            or word in ("memref", "tensor", "vector", "tuple", "complex", "type", "none")
            or _INT_TYPE.match(word) is not None
        )

    def _check_integer_range(self, magnitude: int, negative: bool, t: Type, offset: int) -> None:
        """MLIR's ``buildAttributeAPInt``: the literal must fit the type's width (as signed for
        index and signed types, as signed or unsigned for signless ones)."""
        if isinstance(t, IntegerType):
            width, signed, unsigned = t.width, t.signedness == "s", t.signedness == "u"
        elif isinstance(t, type(INDEX)):
            width, signed, unsigned = 64, True, False
        else:
            return
        if negative and unsigned:
            self.error("negative integer literal not valid for unsigned integer type", offset)
        if not _integer_fits(magnitude, negative, width, signed):
            self.error("integer constant out of range for attribute", offset)

    def _float_bits_of_integer(self, text: str, negative: bool, offset: int, t: FloatType) -> int:
        """The bits an integer literal spells for a value of ``t``: only hexadecimal ones
        (see :func:`_hex_float_bits`); errors at the literal."""
        if not text.startswith("0x"):
            self.error("unexpected decimal integer literal for a floating point value", offset)
        try:
            return _hex_float_bits(int(text, 16), negative, t)
        except _BadElement as bad:
            self.error(bad.message, offset)

    def _parse_float_literal(self, t: FloatType) -> int:
        """The bits of a float literal of ``t``: a decimal read as a double and rounded to
        ``t``, or a hexadecimal spelling of the bits."""
        negative = self.accept("-")
        offset = self.start
        text = self.tok
        if self.kind == "float":
            self.advance()
            value = float(text)
            return SEMANTICS[t.name].from_double(-value if negative else value)
        if self.kind == "int":
            self.advance()
            return self._float_bits_of_integer(text, negative, offset, t)
        self.error("expected floating point literal")

    def _parse_symbol_ref(self) -> SymbolRefAttr:
        root = _symbol_name(self.tok)
        self.advance()
        nested: list[str] = []
        while self.kind == "::":
            self.advance()
            if self.kind != "@":
                self.error("expected nested symbol reference identifier")
            nested.append(_symbol_name(self.tok))
            self.advance()
        return SymbolRefAttr(root, nested)

    def _parse_hash_attr(self) -> Attribute:
        symbol = self._parse_dialect_symbol(self.attr_aliases)
        if not isinstance(symbol, str):
            return symbol
        attr_type = self.parse_type() if self.accept(":") else None
        return OpaqueAttr(symbol, attr_type)

    def _parse_dense_resource(self) -> Attribute:
        """``dense_resource<name> : shaped type`` (kept as text: the blob is not read)."""
        start = self.start
        self.advance()
        self.expect("<", " after 'dense_resource'")
        if self.kind != "id":
            self.error("expected identifier key for 'resource' entry")
        self.advance()
        if self.kind != ">":
            self.wrong_token("expected '>'")
        text = self.text[start : self.end]
        self.advance()
        type_offset = self.start
        self.expect(":")
        t = self.parse_type()
        if not isinstance(t, (TensorType, VectorType, MemRefType)):
            self.error("`dense_resource` expected a shaped type", type_offset)
        return OpaqueAttr(text, t)

    def _balanced_end(self) -> int:
        """The end of the ``<...>`` body that starts right after the current token."""
        end, opener = balanced_end(self.text, self.end)
        if end < 0:
            self.error(f"unbalanced '{opener}' character in pretty dialect name", self.end)
        return end

    def _raw_balanced_after_keyword(self) -> str:
        start = self.start
        if not self.text.startswith("<", self.end):
            self.error("expected '<'", self.end)
        end = self._balanced_end()
        self.reset(end)
        return self._expand_aliases_in(self.text[start:end])

    def _parse_opaque_keyword_attr(self) -> Attribute:
        text = self._raw_balanced_after_keyword()
        if self.accept(":"):
            return OpaqueAttr(text, self.parse_type())
        return OpaqueAttr(text)

    def _expand_aliases_in(self, text: str) -> str:
        """Replace ``#alias``/``!alias`` references inside raw dialect text by their value,
        so that the text stays meaningful without the alias definitions."""
        if "#" not in text[1:] and "!" not in text[1:]:
            return text

        def substitute(m: re.Match) -> str:
            sigil, name = m.group(1), m.group(2)
            if sigil == "#" and name in self.attr_aliases:
                return attr_to_str(self.attr_aliases[name])
            if sigil == "!" and name in self.type_aliases:
                return type_to_str(self.type_aliases[name])
            return m.group(0)

        head, rest = text[0], text[1:]
        return head + re.sub(
            r"([#!])([A-Za-z_][A-Za-z0-9_$]*)(?![A-Za-z0-9_$.<])", substitute, rest
        )

    def _parse_location(self) -> LocationAttr:
        start = self.start
        self.advance()
        if self.kind != "(":
            self.error("expected '(' in location")
        depth = 0
        while True:
            if self.kind == "(":
                depth += 1
            elif self.kind == ")":
                depth -= 1
                if depth == 0:
                    end = self.end
                    self.advance()
                    return LocationAttr(self.text[start:end])
            elif self.kind == "eof":
                self.error("unbalanced '(' in location", start)
            elif self.kind == "#" and self.tok[1:] not in self.attr_aliases:
                self.deferred_aliases.setdefault(self.tok[1:], self.start)
            self.advance()

    def parse_optional_location(self) -> LocationAttr | None:
        if self.kind == "id" and self.tok == "loc":
            return self._parse_location()
        return None

    def parse_attr_dict(self) -> DictionaryAttr:
        self._enter()
        self.expect("{")
        entries: list[tuple[str, Attribute]] = []
        seen: set[str] = set()
        if not self.accept("}"):
            while True:
                name_start = self.start
                if self.kind == "id":
                    name = self.tok
                elif self.kind == "str":
                    name = unescape_string(self.tok)
                    if not name:
                        self.error("expected valid attribute name")
                else:
                    self.error("expected attribute name")
                self.advance()
                if name in seen:
                    self.error(f"duplicate key '{name}' in dictionary attribute", name_start)
                seen.add(name)
                if self.accept("="):
                    entries.append((name, self.parse_attribute()))
                elif self.kind == ":":  # seed syntax: `{name: value}`
                    self.advance()
                    entries.append((name, self.parse_attribute()))
                else:
                    entries.append((name, UNIT))
                if not self.accept(","):
                    break
            self.expect("}", " in attribute dictionary")
        self._leave()
        return DictionaryAttr(entries)

    def _parse_dense(self, type_hint: Type | None = None) -> Attribute:
        """``dense<...> : type``; the type may be left out where the context gives it
        (``type_hint``, e.g. a memref.global's initial value)."""
        start = self.start
        self.advance()
        if self.kind != "<":
            self.error("expected '<' after 'dense'")
        self.advance()
        values: object = None
        literal_shape: list[int] = []
        hex_payload: str | None = None
        literal_start = self.start
        if self.kind == "str":
            hex_payload = unescape_string(self.tok)
            self.advance()
        elif self.kind != ">":
            values, literal_shape = self._parse_dense_nested()
        self.expect(">")
        if self.accept(":"):
            written = self.parse_type()
        elif type_hint is not None:
            written = type_hint
        else:
            self.wrong_token("expected ':'")
        shaped = self._elements_type(written, start)
        return self._elements_attr(
            start,
            literal_start,
            values,
            literal_shape,
            hex_payload,
            shaped,
        )

    def _elements_type(self, shaped: Type, start: int) -> TensorType | VectorType:
        """``shaped`` when it is a statically shaped tensor or vector type, else an error."""
        if not isinstance(shaped, (TensorType, VectorType)):
            self.error("elements literal must be a shaped type", start)
        if not shaped.has_static_shape:
            self.error("elements literal type must have static shape", start)
        return shaped

    def _parse_sparse(self) -> Attribute:
        """``sparse<indices, values> : type`` (mlir-opt's shapes for splat literals and its
        checks of the index table against the type)."""
        start = self.start
        self.advance()
        self.expect("<", " after 'sparse'")
        parts = None
        if not self.accept(">"):
            indices_start = self.start
            indices = self._parse_dense_nested()
            self.expect(",")
            values_start = self.start
            values = self._parse_dense_nested()
            self.expect(">")
            parts = (indices_start, indices, values_start, values)
        self.expect(":")
        shaped = self._elements_type(self.parse_type(), start)
        shape = shaped.shape
        assert shape is not None  # _elements_type: a static shape
        if parts is None:
            return SparseElementsAttr(shaped, None, None)
        indices_start, (index_values, index_shape), values_start, (value_values, value_shape) = (
            parts
        )
        rank = len(shape)
        rows = tuple(index_shape or [1, rank])
        index_type = TensorType(rows, I64)
        value_rows = tuple(value_shape or [rows[0]])
        value_type = TensorType(value_rows, shaped.element_type)
        index_attr = self._elements_attr(
            start, indices_start, index_values, index_shape, None, index_type
        )
        value_attr = self._elements_attr(
            start, values_start, value_values, value_shape, None, value_type
        )
        if len(value_rows) != 1:
            self.error("expected 1-d tensor for sparse element values", start)
        index_rows_fit = (len(rows) == 2 and rows[1] == rank) or (len(rows) == 1 and rank == 1)
        if not index_rows_fit or rows[0] != value_rows[0]:
            self.error(
                f"expected shape ([{', '.join(map(str, shape))}]); inferred shape of "
                f"indices literal ([{', '.join(map(str, rows))}]); inferred shape of values "
                f"literal ([{', '.join(map(str, value_rows))}])",
                start,
            )
        flat = index_attr.flat_values()
        width = rows[1] if len(rows) == 2 else 1
        for row in range(rows[0]):
            index = flat[row * width : (row + 1) * width]
            if any(not 0 <= i < n for i, n in zip(index, shape)):
                self.error(
                    f"sparse index #{row} is not contained within the value shape, with "
                    f"index=[{', '.join(map(str, index))}], and type='{shaped}'",
                    start,
                )
        return SparseElementsAttr(shaped, index_attr, value_attr)

    def _elements_attr(
        self,
        start: int,
        literal_start: int,
        values: object,
        literal_shape: list[int],
        hex_payload: str | None,
        shaped: TensorType | VectorType,
    ) -> DenseElementsAttr:
        """The elements of a literal read by :meth:`_parse_dense_nested` (or a hex payload)
        as values of the static ``shaped`` type, with mlir-opt's checks."""
        element = shaped.element_type
        floats = _float_element(element)
        if hex_payload is not None:
            decoded = _decode_hex_dense(hex_payload, element)
            if decoded is None:
                return DenseElementsAttr(shaped, (), hex=hex_payload)
            if (
                len(decoded) == 1
                or not shaped.has_static_shape
                or len(decoded) == shaped.num_elements
            ):
                if floats:
                    return DenseElementsAttr(shaped, (), bits=decoded)
                return DenseElementsAttr(shaped, decoded)
            self.error("elements hex data size is invalid for provided type", start)
        flat: list = []
        if values is None:
            if shaped.num_elements:
                self.error(
                    f"parsed zero elements, but type ('{shaped}') expected at least 1", start
                )
        else:
            _flatten_dense(values, flat)
            shape = shaped.shape
            assert shape is not None  # the callers pass static types (_elements_type)
            if literal_shape and tuple(literal_shape) != shape:
                self.error(
                    f"inferred shape of elements literal ([{', '.join(map(str, literal_shape))}])"
                    f" does not match type ([{', '.join(map(str, shape))}])",
                    start,
                )
        strings = [isinstance(v, str) for v in flat]
        if not isinstance(element, (IntegerType, IndexType, FloatType, ComplexType)):
            if not all(strings):
                offset = self._dense_scalar_offset(literal_start, strings.index(False))
                _, token_start, token_end = lex(self.text, offset)
                self.error(f"expected string token, got {self.text[token_start:token_end]}", start)
            return DenseElementsAttr(shaped, flat)
        if any(strings):
            self.error(
                "integer constant out of range for type",
                self._dense_scalar_offset(literal_start, strings.index(True)),
            )
        # MLIR reads the literal as a list of numbers, a complex value giving two: a complex
        # type takes them in pairs, other types take as many as there are elements.
        scalars = [s for v in flat for s in (v[1:] if _is_complex(v) else (v,))]
        scalar_type: Type = element
        if isinstance(element, ComplexType):
            scalar_type = element.element_type
            if len(scalars) != 2 * len(flat):
                if not isinstance(values, list):
                    self.error(
                        f"parsed 1 elements, but type ('{element}') expected 2 elements", start
                    )
                self.error(
                    f"parsed {len(scalars)} elements, but type ('{shaped}') expected "
                    f"{2 * len(flat)} elements",
                    start,
                )
        else:
            scalars = scalars[: len(flat)]
        entries: list = []
        for index, value in enumerate(scalars):
            try:
                entries.append(_dense_entry(value, scalar_type))
            except _BadElement as bad:
                self.error(bad.message, self._dense_scalar_offset(literal_start, index))
        if isinstance(element, ComplexType):
            entries = list(zip(entries[::2], entries[1::2]))
        if floats:
            return DenseElementsAttr(shaped, (), bits=entries)
        return DenseElementsAttr(shaped, entries)

    def _dense_scalar_offset(self, literal: int, index: int) -> int:
        """Where the ``index``-th number (or ``true``/``false``) of the dense literal at
        ``literal`` starts: the literal is lexed again, only to place an error."""
        state = self.save()
        self.reset(literal)
        count = -1
        offset = literal
        while self.kind not in ("eof", ">"):
            if self.kind in ("int", "float", "str") or self.tok in ("true", "false"):
                count += 1
                if count == index:
                    offset = self.start
                    break
            self.advance()
        self.restore(state)
        return offset

    def _parse_dense_nested(self) -> tuple[object, list[int]]:
        """An element or nested lists of elements whose shapes agree (mlir-opt's
        ``TensorLiteralParser``), with the shape (``[]`` for an element)."""
        if self.kind == "[":
            self._enter()
            self.advance()
            items: list = []
            dims: list[int] | None = None
            if not self.accept("]"):
                while True:
                    item, item_dims = self._parse_dense_nested()
                    if dims is not None and item_dims != dims:
                        self.error(
                            "tensor literal is invalid; ranks are not consistent between elements"
                        )
                    dims = item_dims
                    items.append(item)
                    if not self.accept(","):
                        break
                self.expect("]")
            self._leave()
            return items, [len(items), *(dims or [])]
        return self._parse_dense_element(), []

    def _parse_dense_element(self):
        if self.kind == "(":  # complex value
            self.advance()
            re_part = self._parse_dense_scalar()
            self.expect(",", " between complex elements")
            im_part = self._parse_dense_scalar()
            self.expect(")", " after complex elements")
            return ("complex", re_part, im_part)
        return self._parse_dense_scalar()

    def _parse_dense_scalar(self):
        if self.kind == "str":  # an element of a non-primitive type (dialect strings)
            text = unescape_string(self.tok)
            self.advance()
            return text
        if self.kind == "id" and self.tok in ("true", "false"):
            value = self.tok == "true"
            self.advance()
            return value
        negative = self.accept("-")
        if self.kind == "int":
            value_i = _int_value(self.tok)
            hexed = self.tok.startswith("0x")
            self.advance()
            if hexed:  # the sign is kept apart: a float's bits may not be negated
                return ("hexint", value_i, negative)
            return -value_i if negative else value_i
        if self.kind == "float":
            value_f = float(self.tok)
            self.advance()
            return -value_f if negative else value_f
        self.error("expected element literal of primitive type")

    def _parse_dense_array(self) -> DenseArrayAttr:
        """``array<T: v, ...>`` of integers (i1 or whole bytes wide) or floats."""
        self.advance()
        self.expect("<", " after 'array'")
        type_offset = self.start
        element = self.parse_type()
        if not isinstance(element, (IntegerType, IndexType, FloatType)):
            self.error(f"expected integer or float type, got: '{element}'", type_offset)
        width = (
            SEMANTICS[element.name].width
            if isinstance(element, FloatType)
            else getattr(element, "width", 64)
        )
        if element != I1 and width % 8:
            self.error("element type bitwidth must be a multiple of 8", type_offset)
        values: list = []
        if not self.accept(">"):
            self.expect(":", " after dense array type")
            while True:
                if isinstance(element, FloatType):
                    values.append(self._parse_float_literal(element))
                elif element == I1 and self.kind == "id":
                    values.append(self.parse_keyword() == "true")
                else:
                    values.append(self.parse_integer())
                if not self.accept(","):
                    break
            self.expect(">", " to close an array attribute")
        if isinstance(element, FloatType):
            return DenseArrayAttr(element, (), values)
        return DenseArrayAttr(element, values)

    # -- SSA values ---------------------------------------------------------------------------

    def _push_isolated(self) -> None:
        self.scopes.append(_Isolated())

    def _pop_isolated(self) -> None:
        scope = self.scopes.pop()
        if scope.forward:
            ref = min(scope.forward.values(), key=lambda r: r.offset)
            self.error("use of undeclared SSA value name", ref.offset)

    def _push_layer(self) -> None:
        self.scopes[-1].layers.append({})

    def _pop_layer(self) -> None:
        self.scopes[-1].layers.pop()

    def _lookup_value(self, name: str, index: int, offset: int) -> Value:
        scope = self.scopes[-1]
        for layer in reversed(scope.layers):
            group = layer.get(name)
            if group is not None:
                if index >= len(group):
                    self.error("reference to invalid result number", offset)
                return group[index]
        key = (name, index)
        ref = scope.forward.get(key)
        if ref is None:
            ref = ForwardRef(name if index == 0 else f"{name}#{index}", offset)
            scope.forward[key] = ref
            self.pending_forward += 1
        return ref

    def define_values(self, name: str, values: Sequence[Value], offset: int) -> None:
        scope = self.scopes[-1]
        for layer in scope.layers:
            if name in layer:
                self.error(f"redefinition of SSA value '%{name}'", offset)
        scope.layers[-1][name] = list(values)
        for index, value in enumerate(values):
            value.name = f"%{name}" if len(values) == 1 else f"%{name}#{index}"
        if scope.forward:
            for index, value in enumerate(values):
                ref = scope.forward.pop((name, index), None)
                if ref is not None:
                    if ref.type is not None and ref.type != value.type:
                        self.error(
                            f"definition of SSA value '%{name}#{index}' has type '{value.type}'",
                            offset,
                        )
                    self._resolve_forward(ref, value)

    def _resolve_forward(self, ref: ForwardRef, value: Value) -> None:
        for op in ref.ops:
            operands = op.operands
            for i, v in enumerate(operands):
                if v is ref:
                    operands[i] = value
        self.pending_forward -= 1

    def note_op_created(self, op: Operation) -> None:
        if self.pending_forward:
            for v in op.operands:
                if isinstance(v, ForwardRef):
                    v.ops.append(op)

    # -- custom syntax helpers ------------------------------------------------------------------

    def parse_operand(self) -> tuple[Value, int]:
        """``%name`` or ``%name#N``; returns the value (maybe a forward ref) and its offset."""
        if self.kind != "%":
            self.wrong_token("expected SSA operand")
        token = self.tok
        offset = self.start
        self.advance()
        name, _, number = token[1:].partition("#")
        if not number and self.kind == "#" and self.tok.startswith("#"):
            # as in mlir-opt, a '#...' after an SSA name is its result number, spaced or not
            number = self.tok[1:]
            if not number.isdigit():
                self.error("invalid SSA value result number")
            self.advance()
        return self._lookup_value(name, int(number) if number else 0, offset), offset

    def parse_optional_operand(self) -> tuple[Value, int] | None:
        return self.parse_operand() if self.kind == "%" else None

    def parse_comma_list(self, open_: str, parse_element: Callable[[], E]) -> list[E]:
        """``[a, b]`` or ``(a, b)``, possibly empty, each element read by ``parse_element``
        (MLIR's parseCommaSeparatedList with a delimiter)."""
        close = {"[": "]", "(": ")", "<": ">", "{": "}"}[open_]
        self.expect(open_)
        elements: list[E] = []
        if self.accept(close):
            return elements
        while True:
            elements.append(parse_element())
            if not self.accept(","):
                break
        self.expect(close)
        return elements

    def parse_operand_list(
        self, delimiter: str | None = None, context: str = ""
    ) -> list[tuple[Value, int]]:
        """A comma list of operands, optionally in ``(`` ``)`` or ``[`` ``]``.

        ``delimiter`` is ``None`` (bare list, possibly empty), ``'('``, ``'['`` or
        ``'[?'`` (optional square brackets).  Without ``context`` a list not starting with
        an operand is empty (mlir-opt's ``parseOperandList``); with it, the list's elements
        are all operands and ``context`` ends the bracket errors (`` in operand list``).
        """
        close = None
        if delimiter == "(":
            self.expect("(", context)
            close = ")"
        elif delimiter == "[":
            self.expect("[", context)
            close = "]"
        elif delimiter == "[?":
            if not self.accept("["):
                return []
            close = "]"
        operands: list[tuple[Value, int]] = []
        if close is not None and self.accept(close):
            return operands
        if self.kind != "%" and (close is None or not context):
            if close is not None:
                self.expect(close, context)
            return operands
        while True:
            operands.append(self.parse_operand())
            if not self.accept(","):
                break
        if close is not None:
            self.expect(close, context)
        return operands

    def resolve(self, operand: tuple[Value, int], type: Type) -> Value:
        """Check that ``operand`` has ``type`` (or give a forward reference that type)."""
        value, offset = operand
        if isinstance(value, ForwardRef):
            if value.type is None:
                value.type = type
                return value
            actual = value.type
        else:
            actual = value.type
        if actual != type:
            m = _SSA_NAME.match(self.text, offset)
            name = m.group(0) if m else self.text[offset:].split(None, 1)[0]
            self.error(
                f"use of value '{name}' expects different type than prior uses: "
                f"'{type}' vs '{actual}'",
                offset,
            )
        return value

    def resolve_all(
        self, operands: Sequence[tuple[Value, int]], types: Sequence[Type] | Type
    ) -> list[Value]:
        if isinstance(types, Type):
            return [self.resolve(o, types) for o in operands]
        return [self.resolve(o, t) for o, t in zip(operands, types)]

    def parse_colon_type(self) -> Type:
        self.expect(":")
        return self.parse_type()

    def parse_colon_type_of(
        self, cls: type[TypeClass], mnemonic: str, at_colon: bool = False
    ) -> TypeClass:
        """``: type`` where the type must be a ``cls`` (``builtin.memref``, ...); the error is
        at the colon for hand-written mlir-opt parsers, at the type for generated ones."""
        colon = self.start
        self.expect(":")
        type_offset = self.start
        t = self.parse_type()
        if not isinstance(t, cls):
            self.op_error(
                f"invalid kind of type specified: expected {mnemonic}, but found '{t}'",
                colon if at_colon else type_offset,
            )
        return t

    def parse_colon_type_list(self) -> list[Type]:
        self.expect(":")
        return self.parse_type_list_no_parens()

    def parse_type_list_parens(self) -> list[Type]:
        self.expect("(")
        if self.accept(")"):
            return []
        types = self.parse_type_list_no_parens()
        self.expect(")")
        return types

    def parse_arrow_type_list(self) -> list[Type]:
        self.expect("->")
        return self.parse_function_result_types()

    def parse_optional_arrow_type_list(self) -> list[Type]:
        if self.kind == "->":
            return self.parse_arrow_type_list()
        return []

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        if self.kind == "{":
            return dict(self.parse_attr_dict().entries)
        return {}

    def parse_optional_attr_dict_with_keyword(self) -> dict[str, Attribute]:
        if self.accept_keyword("attributes"):
            return dict(self.parse_attr_dict().entries)
        return {}

    @overload
    def parse_argument(
        self, with_type: Literal[True], colon_context: str = ""
    ) -> tuple[str, int, Type, int]: ...

    @overload
    def parse_argument(
        self, with_type: Literal[False] = False, colon_context: str = ""
    ) -> tuple[str, int, None, int]: ...

    def parse_argument(
        self, with_type: bool = False, colon_context: str = ""
    ) -> tuple[str, int, Type | None, int]:
        """A region argument ``%name`` (``: type`` if asked, ``colon_context`` completing
        the missing-colon message) with an optional ``loc(...)``.

        Returns ``(name, offset, type, location offset)``."""
        if self.kind != "%":
            self.wrong_token("expected SSA operand")
        token = self.tok
        if "#" in token:
            self.error("result number not allowed in argument list", self.start + token.index("#"))
        offset = self.start
        self.advance()
        if self.kind == "#" and self.tok.startswith("#"):
            self.error("result number not allowed in argument list")
        arg_type = None
        if with_type:
            self.expect(":", colon_context)
            arg_type = self.parse_type()
        self.parse_optional_location()
        return token[1:], offset, arg_type, offset

    def ssa_lookup(
        self, names: dict[Value, AffineExpr], operands: list[tuple[Value, int]], counts: list[int]
    ):
        """Identifier resolver for affine expressions over SSA ids (``%x``, ``symbol(%x)``)."""

        by_name: dict[str, AffineExpr] = {}

        def ssa_id(p: Parser, is_symbol: bool) -> AffineExpr:
            # As in MLIR, an SSA name met again is the same identifier whatever its result
            # number, and a '#N' after it is left unread (so `%x#0, %x#1` is an error).
            name = p.tok[1:].partition("#")[0]
            hit = by_name.get(name)
            if hit is not None:
                p.reset(p.start + 1 + len(name))
                return hit
            expr = _ssa_expr(p.parse_operand(), is_symbol)
            by_name[name] = expr
            return expr

        def lookup_id(p: Parser) -> AffineExpr:
            if p.kind == "%":
                return ssa_id(p, False)
            if p.kind == "id" and p.tok == "symbol":
                p.advance()
                p.expect("(")
                if p.kind != "%":
                    p.wrong_token("expected SSA operand")
                expr = ssa_id(p, True)
                p.expect(")")
                return expr
            p.error("expected bare identifier")

        dims: list[tuple[Value, int]] = []
        syms: list[tuple[Value, int]] = []
        seen: dict[int, AffineExpr] = {}

        def _ssa_expr(operand: tuple[Value, int], is_symbol: bool) -> AffineExpr:
            value = operand[0]
            hit = seen.get(id(value))
            if hit is not None:
                return hit
            if is_symbol:
                expr = symbol(len(syms))
                syms.append(operand)
            else:
                expr = dim(len(dims))
                dims.append(operand)
            seen[id(value)] = expr
            return expr

        return lookup_id, dims, syms

    def parse_affine_map_of_ssa_ids(
        self, delimiter: str = "["
    ) -> tuple[AffineMap, list[tuple[Value, int]]]:
        """``[%i - 1, %j + symbol(%n)]`` as a map and its operands (dims then symbols)."""
        close = "]" if delimiter == "[" else ")"
        self.expect(delimiter, " in affine map")
        lookup_id, dims, syms = self.ssa_lookup({}, [], [])
        exprs: list[AffineExpr] = []
        if not self.accept(close):
            while True:
                exprs.append(self.parse_affine_expr(lookup_id))
                if not self.accept(","):
                    break
            self.expect(close, " in affine map")
        return _ssa_map(exprs, len(dims), len(syms)), dims + syms

    def parse_affine_expr_of_ssa_ids(
        self,
    ) -> tuple[AffineExpr, list[tuple[Value, int]], list[tuple[Value, int]]]:
        lookup_id, dims, syms = self.ssa_lookup({}, [], [])
        expr = self.parse_affine_expr(lookup_id)
        return _ssa_map([expr], len(dims), len(syms)).results[0], dims, syms

    def parse_affine_map_attr(self) -> AffineMap:
        """``affine_map<...>``, a ``#alias`` of one, or a seed inline map."""
        if self.kind == "(":
            return self._parse_seed_map_or_set(want="map")
        offset = self.start
        attr = self.parse_attribute()
        if not isinstance(attr, AffineMapAttr):
            self.error("expected affine map", offset)
        return attr.value

    def parse_integer_set_attr(self) -> IntegerSet:
        offset = self.start
        if self.kind == "(":
            result = self._parse_seed_map_or_set(want="set")
        else:
            attr = self.parse_attribute()
            if not isinstance(attr, IntegerSetAttr):
                self.error("expected integer set", offset)
            result = attr.value
        if not isinstance(result, IntegerSet):
            self.error("expected integer set", offset)
        return result

    def parse_dim_and_symbol_list(self) -> tuple[list[tuple[Value, int]], int]:
        dims = self.parse_operand_list("(", " in operand list")
        syms = self.parse_operand_list("[?", " in operand list")
        return dims + syms, len(dims)

    def parse_region(
        self,
        entry_args: Sequence[tuple[str, int, Type]] = (),
        isolated: bool = False,
        default_dialect: str | None = None,
    ) -> Region:
        """``{ blocks }``; ``entry_args`` are (name, offset, type) defined in the entry block."""
        self._enter()
        self.expect("{", " to begin a region")
        saved_custom_op, self.custom_op = self.custom_op, None
        if isolated:
            self._push_isolated()
        else:
            self._push_layer()
        if default_dialect is not None:
            self.default_dialects.append(default_dialect)
        blocks_state = _RegionBlocks()
        self.region_blocks.append(blocks_state)
        region = Region()
        if self.kind != "}" or entry_args:
            entry = Block()
            scope = self.scopes[-1]
            for name, offset, arg_type in entry_args:
                if (name, 0) in scope.forward or any(name in layer for layer in scope.layers):
                    self.error(f"region entry argument '%{name}' is already in use", offset)
                arg = entry.add_argument(arg_type, self.loc(offset))
                self.define_values(name, [arg], offset)
            if self.kind == "^":  # the region starts with a labelled block
                if entry_args:
                    self.error("invalid block name in region with named arguments")
            else:
                region.add_block(entry)
                self._parse_block_body(entry)
            while self.kind == "^":
                self._parse_labelled_block(region, blocks_state)
        self.expect("}", " in region")
        if blocks_state.forward:
            _, offset = next(iter(blocks_state.forward.values()))
            self.error("reference to an undefined block", offset)
        self.region_blocks.pop()
        if default_dialect is not None:
            self.default_dialects.pop()
        if isolated:
            self._pop_isolated()
        else:
            self._pop_layer()
        self.custom_op = saved_custom_op
        self._leave()
        return region

    def _parse_labelled_block(self, region: Region, state: _RegionBlocks) -> None:
        name = self.tok[1:]
        offset = self.start
        self.advance()
        if name in state.defined:
            self.error(f"redefinition of block '^{name}'", offset)
        pending = state.forward.pop(name, None)
        block = pending[0] if pending is not None else Block()
        state.defined[name] = block
        region.add_block(block)
        if self.accept("("):
            if not self.accept(")"):
                while True:
                    arg_name, arg_offset, arg_type, _ = self.parse_argument(
                        with_type=True, colon_context=" and type for SSA operand"
                    )
                    arg = block.add_argument(arg_type, self.loc(arg_offset))
                    self.define_values(arg_name, [arg], arg_offset)
                    if not self.accept(","):
                        break
                self.expect(")")
        self.expect(":", " after block name")
        self._parse_block_body(block)

    def _parse_block_body(self, block: Block) -> None:
        ops = block.operations
        while self.kind not in ("}", "^"):
            op = self.parse_operation()
            if self.pre_ops:
                for extra in self.pre_ops:
                    extra.parent = block
                    ops.append(extra)
                self.pre_ops.clear()
            op.parent = block
            ops.append(op)

    def parse_successor(self) -> Block:
        if self.kind != "^":
            self.wrong_token("expected block name")
        name = self.tok[1:]
        offset = self.start
        self.advance()
        if not self.region_blocks:  # the top level has no blocks to branch to
            self.error("reference to an undefined block", offset)
        state = self.region_blocks[-1]
        block = state.defined.get(name)
        if block is None:
            pending = state.forward.get(name)
            if pending is None:
                block = Block()
                state.forward[name] = (block, offset)
            else:
                block = pending[0]
        return block

    # -- operations -------------------------------------------------------------------------------

    def parse_operation(self) -> Operation:
        results: list[tuple[str, int, int]] = []  # (name, count, offset)
        if self.kind == "%":
            while True:
                if self.kind != "%":
                    self.wrong_token("expected valid ssa identifier")
                token = self.tok
                offset = self.start
                if "#" in token:  # mlir-opt reads '%x' then finds no '=' after it
                    self.error("expected '=' after SSA name", offset + token.index("#"))
                self.advance()
                count = 1
                if self.accept(":"):
                    if self.kind != "int":
                        self.wrong_token("expected integer number of results")
                    count = _int_value(self.tok)
                    if count < 1:
                        self.error("expected named operation to have at least 1 result")
                    self.advance()
                results.append((token[1:], count, offset))
                if not self.accept(","):
                    break
            self.expect("=", " after SSA name")
        name_offset = self.start
        if self.kind == "str":
            op = self._parse_generic_operation()
        elif self.kind == "id" and not _INT_TYPE.match(self.tok):  # `i32` starts no op
            op = self._parse_custom_operation(name_offset)
        else:
            self.wrong_token("expected operation name in quotes")
        if op.loc is None:
            op.loc = self.loc(name_offset)
        self.note_op_created(op)
        if results:
            expected = sum(c for _, c, _ in results)
            if not op.results:
                self.error("cannot name an operation with no results", results[0][2])
            if expected != len(op.results):
                self.error(
                    f"operation defines {len(op.results)} results but was provided "
                    f"{expected} to bind",
                    results[0][2],
                )
            index = 0
            for name, count, offset in results:
                self.define_values(name, op.results[index : index + count], offset)
                index += count
        self.parse_optional_location()
        return op

    def _parse_generic_operation(self) -> Operation:
        saved_custom_op, self.custom_op = self.custom_op, None
        try:
            return self._parse_generic_operation_body()
        finally:
            self.custom_op = saved_custom_op

    def _parse_generic_operation_body(self) -> Operation:
        name_offset = self.start
        name = unescape_string(self.tok)
        if not name:
            self.error("empty operation name is invalid")
        self.advance()
        self.expect("(", " to start operand list")
        operands = self.parse_operand_list() if self.kind != ")" else []
        self.expect(")", " to end operand list")
        successors: list[Block] = []
        old_style_args: list[tuple[Value, int]] = []
        old_style_types: list[Type] = []
        op_def = lookup(name)
        if self.at("[") and op_def is not None and not op_def.has(TERMINATOR):
            self.error("successors in non-terminator")
        if self.accept("["):
            while True:
                successors.append(self.parse_successor())
                if self.accept("("):  # seed syntax: successor operands inline
                    args = self.parse_operand_list()
                    self.expect(":")
                    types = self.parse_type_list_no_parens()
                    self.expect(")")
                    old_style_args.extend(args)
                    old_style_types.extend(types)
                if not self.accept(","):
                    break
            self.expect("]", " to end successor list")
        properties: dict[str, Attribute] = {}
        if self.kind == "<" and self.text.startswith("{", self.end):
            self.advance()
            properties = dict(self.parse_attr_dict().entries)
            self.expect(">", " to close properties")
        regions: list[Region] = []
        isolated = op_def is not None and op_def.has(ISOLATED)
        if self.kind == "(" and lex(self.text, self.end)[0] == "{":
            self.advance()
            while True:
                regions.append(self.parse_region(isolated=isolated))
                if not self.accept(","):
                    break
            self.expect(")", " to end region list")
        attributes: dict[str, Attribute] = {}
        if self.kind == "{":
            attributes = dict(self.parse_attr_dict().entries)
        self.expect(":", " followed by operation type")
        type_offset = self.start
        op_type = self.parse_type()
        if isinstance(op_type, FunctionType):
            input_types, result_types = op_type.inputs, op_type.results
        elif not operands and _seed().is_seed_generic_name(name):  # `"constant"(){value: 42} : i32`
            input_types, result_types = (), (op_type,)
        else:
            self.error("expected function type", type_offset)
        if len(input_types) != len(operands):
            self.error(
                f"expected {len(operands)} operand type{'s' if len(operands) != 1 else ''} "
                f"but had {len(input_types)}",
                type_offset,
            )
        values = [self.resolve(o, t) for o, t in zip(operands, input_types)]
        if old_style_args:
            values += [self.resolve(o, t) for o, t in zip(old_style_args, old_style_types)]
        if op_def is not None and op_def.properties:
            for key in list(attributes):
                if key in op_def.properties and key not in properties:
                    properties[key] = attributes.pop(key)
        op = Operation.create(
            name,
            values,
            result_types,
            properties,
            attributes,
            regions,
            successors,
            self.loc(name_offset),
        )
        if _seed().is_seed_generic_name(name):
            self.seed_ops.append(op)
        return op

    def resolve_op_name(self, word: str) -> str:
        """The full name of a custom op written ``word`` (default dialect applied)."""
        if "." in word:
            return word
        if self.default_dialects:
            candidate = f"{self.default_dialects[-1]}.{word}"
            if lookup(candidate) is not None:
                return candidate
        if lookup(f"builtin.{word}") is not None:
            return f"builtin.{word}"
        return word

    def _parse_custom_operation(self, name_offset: int) -> Operation:
        word = self.text[self.start : self.end]
        if "." in word:
            op_def: OpDef | None = lookup(word)
            seed_parser = None
        else:
            op_def = lookup(self.resolve_op_name(word))
            seed_parser = _seed().SEED_PARSERS.get(word)
        seed_constant = word == "constant" and (self.seed_functions or op_def is None)
        if seed_parser is not None and (op_def is None or seed_constant):
            self.advance()
            op = seed_parser(self, name_offset)
            self.seed_ops.append(op)
            return op
        if op_def is None or op_def.parse is None:
            self.advance()  # mlir-opt has read the next token (a lexer error there comes first)
            self._unknown_custom_op(word, name_offset)
        self.advance()
        saved_custom_op, self.custom_op = self.custom_op, op_def.name
        self.default_dialects.append(op_def.default_dialect or "")  # for its regions
        op = op_def.parse(self, name_offset)
        self.default_dialects.pop()
        self.custom_op = saved_custom_op
        return op

    def _unknown_custom_op(self, word: str, offset: int) -> NoReturn:
        """mlir-opt's words: a name without a dialect (or ending in '.') is tried in the
        default dialect; a dialect mlir-opt cannot load is 'not found'."""
        rest = word.partition(".")[2]
        name = word if rest else f"{self.default_dialects[-1]}.{word}"
        dialect = name.partition(".")[0]
        tried = f" (tried '{name}' as well)" if name != word else ""
        if dialect not in MLIR_OPT_DIALECTS:
            self.error(f"Dialect `{dialect}' not found for custom op '{word}' {tried}", offset)
        self.error(f"custom op '{word}' is unknown{tried}", offset)

    # -- top level ----------------------------------------------------------------------------------

    def parse_top_level(self) -> Module:
        """The whole buffer: alias definitions, then ops (wrapped in a module if needed)."""
        self._push_isolated()
        top = Block()
        metadata: str | None = None
        while self.kind != "eof":
            if self.kind == "#" or self.kind == "!":
                self._parse_alias_definition()
                continue
            if self.kind == "{-#":
                metadata = self._parse_file_metadata()
                continue
            if self.at_keyword("func") and lex(self.text, self.end)[0] == "@":
                op = _seed().parse_seed_function(self)
                top.append(op)
                continue
            op = self.parse_operation()
            for extra in self.pre_ops:
                top.append(extra)
            self.pre_ops.clear()
            top.append(op)
        self._pop_isolated()
        for name, offset in self.deferred_aliases.items():
            if name not in self.attr_aliases:
                self.error(f"undefined symbol alias id '{name}'", offset)
        implicit = not (len(top.operations) == 1 and top.operations[0].name == "builtin.module")
        if not implicit:
            module_op = top.operations[0]
            module_op.parent = None
        else:
            module_op = Operation.create("builtin.module", regions=1, loc=self.loc(0))
            module_op.regions[0].add_block(top)
        if self.seed_ops:
            _seed().modernize(module_op, self.seed_ops)
        return Module(module_op, self.source, metadata, implicit)

    def _parse_alias_definition(self) -> None:
        sigil = self.kind
        name = self.tok[1:]
        what = "type" if sigil == "!" else "attribute"
        if name in (self.type_aliases if sigil == "!" else self.attr_aliases):
            self.error(f"redefinition of {what} alias id '{name}'")
        if "." in name and not self._seed_type_alias_follows():
            self.error(f"{what} names with a '.' are reserved for dialect-defined names")
        self.advance()
        self.expect("=", f" in {what} alias definition")
        if sigil == "!":
            self.accept_keyword("type")  # seed syntax: `!name = type <type>`
            self.type_aliases[name] = self.parse_type()
            return
        if self.kind == "(":
            value = self._parse_seed_map_or_set()
            attr: Attribute = (
                AffineMapAttr(value) if isinstance(value, AffineMap) else IntegerSetAttr(value)
            )
        else:
            attr = self.parse_attribute()
        self.attr_aliases[name] = attr

    def _seed_type_alias_follows(self) -> bool:
        """``!name = type <type>``: the seed syntax, where alias names may have dots."""
        state = self.save()
        self.advance()
        seed = self.accept("=") and self.at_keyword("type")
        self.restore(state)
        return seed

    def _parse_file_metadata(self) -> str:
        start = self.start
        end = self.text.find("#-}", self.end)
        if end < 0:
            self.error("expected '#-}' to end file metadata")
        self.reset(end + 3)
        return self.text[start : end + 3]


class SeedSyntax(Protocol):
    """The 2018-19 seed syntax of the standard ops (the module :mod:`affine.dialects.seed`,
    which builds them from the dialects and installs itself here when it is imported)."""

    SEED_PARSERS: Mapping[str, Callable[[Parser, int], Operation]]

    def parse_seed_function(self, p: Parser) -> Operation: ...

    def is_seed_generic_name(self, name: str) -> bool: ...

    def modernize(self, module: Operation, seed_ops: list[Operation]) -> None: ...


_SEED_SYNTAX: Hook[SeedSyntax] = Hook("seed syntax")

install_seed_syntax = _SEED_SYNTAX.install  # called by affine.dialects.seed when imported
_seed = _SEED_SYNTAX.get


_SIMPLE_TYPES: dict[str, Type] = {
    "index": INDEX,
    "none": NONE,
    "i1": I1,
    "i8": IntegerType(8),
    "i16": IntegerType(16),
    "i32": IntegerType(32),
    "i64": I64,
    "f16": FloatType("f16"),
    "bf16": FloatType("bf16"),
    "f32": FloatType("f32"),
    "f64": F64,
}


def _symbol_name(token: str) -> str:
    body = token[1:]
    return unescape_string(body) if body.startswith('"') else body


def _ssa_map(exprs: list[AffineExpr], num_dims: int, num_symbols: int) -> AffineMap:
    return AffineMap.get(num_dims, num_symbols, exprs)


_PRETTY_SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9._]*(?:<.*>)?", re.S)


def _pretty_dialect_symbol(text: str) -> str:
    """``!ns<body>`` / ``#ns<body>`` as mlir-opt prints it: ``!ns.body`` when the body is an
    identifier, possibly followed by a ``<...>`` part (``!ns<x<i32>>`` is ``!ns.x<i32>``)."""
    prefix, bracket, rest = text.partition("<")
    if "." in prefix or not bracket:
        return text
    body = rest[:-1]
    return f"{prefix}.{body}" if _PRETTY_SYMBOL.fullmatch(body) else text


def _flatten_dense(value, out: list) -> None:
    if isinstance(value, list):
        for item in value:
            _flatten_dense(item, out)
    else:
        out.append(value)


class _BadElement(PolyError):
    """A number of a dense literal its element type rejects."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _is_complex(value) -> bool:
    return isinstance(value, tuple) and value[0] == "complex"


def _float_element(element: Type) -> bool:
    """Are the elements floats or complex floats (stored as their bits)?"""
    if isinstance(element, ComplexType):
        element = element.element_type
    return isinstance(element, FloatType)


def _hex_float_bits(value: int, negative: bool, t: FloatType) -> int:
    """The bits a hexadecimal literal spells for ``t``: no minus, no more bits than the type
    has (fewer are zero-extended)."""
    if negative:
        raise _BadElement("hexadecimal float literal should not have a leading minus")
    if value.bit_length() > SEMANTICS[t.name].width:
        raise _BadElement("hexadecimal float constant out of range for type")
    return value


def _dense_entry(value, element: Type):
    """One number of a dense literal as stored for a scalar ``element`` type: a float's bits
    (a decimal is read as a double and rounded to the type), a bool or an int."""
    if isinstance(element, FloatType):
        if isinstance(value, float):
            return SEMANTICS[element.name].from_double(value)
        if isinstance(value, tuple):
            return _hex_float_bits(value[1], value[2], element)
        if isinstance(value, bool):
            raise _BadElement("expected floating point literal")
        raise _BadElement("unexpected decimal integer literal for a floating point value")
    unsigned = isinstance(element, IntegerType) and element.signedness == "u"
    if isinstance(value, tuple):
        magnitude, negative = value[1], value[2]
    else:
        magnitude, negative = abs(value), value < 0
    if negative and unsigned:
        raise _BadElement("expected unsigned integer elements, but parsed negative value")
    if isinstance(value, float):
        raise _BadElement("expected integer elements, but parsed floating-point")
    if isinstance(value, bool):
        if element != I1:
            raise _BadElement("expected i1 type for 'true' or 'false' values")
        return value
    width = element.width if isinstance(element, IntegerType) else 64
    signed = not isinstance(element, IntegerType) or element.signedness == "s"  # index: signed
    if not _integer_fits(magnitude, negative, width, signed):
        raise _BadElement("integer constant out of range for type")
    number = -magnitude if negative else magnitude
    return bool(number) if element == I1 else number


def _integer_fits(magnitude: int, negative: bool, width: int, signed: bool) -> bool:
    """MLIR's ``buildAttributeAPInt``: a literal fits a width as a signed value, or for a
    signless or unsigned type also as an unsigned one."""
    if width == 0:  # i0, si0, ui0 hold only 0
        return magnitude == 0
    if negative:
        return magnitude <= (1 << (width - 1))
    if signed:
        return magnitude < (1 << (width - 1))
    return magnitude < (1 << width)


def _decode_hex_dense(payload: str, element: Type) -> list | None:
    """The elements a ``dense<"0x...">`` payload holds (little-endian, each element in whole
    bytes): a float type's bits, or integers of 8, 16, 32 or 64 bits; None for other
    element types (the payload is kept as written)."""
    import struct

    if not payload.startswith("0x"):
        return None
    data = bytes.fromhex(payload[2:])
    if isinstance(element, FloatType):
        width = SEMANTICS[element.name].width
        size = (width + 7) // 8
        if len(data) % size:
            return None
        mask = (1 << width) - 1
        return [
            int.from_bytes(data[i : i + size], "little") & mask for i in range(0, len(data), size)
        ]
    fmt = None
    if isinstance(element, IntegerType) and element.width in (8, 16, 32, 64):
        fmt = "<" + {8: "b", 16: "h", 32: "i", 64: "q"}[element.width]
        if element.signedness == "u":
            fmt = fmt.upper()
    if fmt is None:
        return None
    size = struct.calcsize(fmt)
    if len(data) % size:
        return None
    return [v[0] for v in struct.iter_unpack(fmt, data)]


# -- public entry points -----------------------------------------------------------------------


def parse_module(text: str, filename: str = "<input>", line_offset: int = 0) -> Module:
    """Read MLIR text (modern or seed syntax) into a module.

    The cyclic garbage collector is paused while reading: the reader allocates many
    long-lived objects and no garbage cycles, and collections triggered by those
    allocations would otherwise take about 40% of the time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return Parser(text, filename, line_offset).parse_top_level()
    finally:
        if was_enabled:
            gc.enable()


def _parse_single(text: str, fn: Callable[[Parser], object], what: str):
    p = Parser(text, f"<{what}>")
    value = fn(p)
    if p.kind != "eof":
        p.error(f"unexpected text after {what}")
    return value


def parse_type(text: str) -> Type:
    return _parse_single(text, Parser.parse_type, "type")


def parse_attribute(text: str) -> Attribute:
    return _parse_single(text, Parser.parse_attribute, "attribute")


def _parse_map_or_set(
    text: str,
    keyword: str,
    attr_class: type[AffineMapAttr] | type[IntegerSetAttr],
    what: str,
    kind: str,
) -> Any:
    """``keyword<...>`` read as an attribute of ``attr_class``, or just the body."""
    stripped = text.strip()
    if stripped.startswith(keyword):
        attr = parse_attribute(stripped)
        if not isinstance(attr, attr_class):
            raise ParseError(f"expected {what}")
        return attr.value
    return _parse_single(stripped, lambda p: p._parse_map_or_set_body(kind), what)


def parse_affine_map(text: str) -> AffineMap:
    """``affine_map<...>``, or just the ``(d0)[s0] -> (...)`` body (seed ``size`` allowed)."""
    return _parse_map_or_set(text, "affine_map", AffineMapAttr, "affine map", "map")


def parse_integer_set(text: str) -> IntegerSet:
    """``affine_set<...>``, or just the ``(d0)[s0] : (...)`` body."""
    return _parse_map_or_set(text, "affine_set", IntegerSetAttr, "integer set", "set")


def parse_affine_expr(text: str, num_dims: int = 0, num_symbols: int = 0) -> AffineExpr:
    """An expression over ``d0..``, ``s0..`` (e.g. ``"d0 floordiv 4 + s0"``)."""
    names = {f"d{i}": dim(i) for i in range(num_dims)}
    names.update({f"s{i}": symbol(i) for i in range(num_symbols)})
    return _parse_single(
        text, lambda p: p.parse_affine_expr(_name_resolver(names)), "affine expression"
    )


__all__ = [
    "BlockArgument",
    "ForwardRef",
    "Parser",
    "parse_affine_expr",
    "parse_affine_map",
    "parse_attribute",
    "parse_integer_set",
    "parse_module",
    "parse_type",
]
