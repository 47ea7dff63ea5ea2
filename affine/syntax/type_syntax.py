"""The type section of the MLIR reader: builtin types (integers, floats, ``index``, shaped
types with their layouts and memory spaces, functions, tuples, complex) and dialect types,
through type aliases.

Invariant: a type read here is the canonical value (:mod:`affine.ir.types`) mlir-opt 22 would
build from the same text, or a :class:`~affine.ir.diagnostics.ParseError` at the offending
token. Attributes inside types (memref layouts, memory spaces, encodings) are read by the
attribute section (:class:`affine.syntax.attribute_syntax.AttributeParser`), which derives
from this one: the two sections read each other, as in MLIR's ``TypeParser.cpp`` and
``AttributeParser.cpp`` over one ``Parser`` class.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TypeVar

from affine.ir.attributes import (
    AffineMapAttr,
    Attribute,
    DictionaryAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
)
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
from affine.syntax.affine_syntax import AffineSyntaxReader
from affine.syntax.lexer import balanced_end, lex
from affine.syntax.printer import attr_to_str, type_to_str
from affine.syntax.reader import int_value

INTEGER_TYPE = re.compile(r"(s|u)?i([0-9]+)$")
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


_PRETTY_SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9._]*(?:<.*>)?", re.S)


def _pretty_dialect_symbol(text: str) -> str:
    """``!ns<body>`` / ``#ns<body>`` as mlir-opt prints it: ``!ns.body`` when the body is an
    identifier, possibly followed by a ``<...>`` part (``!ns<x<i32>>`` is ``!ns.x<i32>``)."""
    prefix, bracket, rest = text.partition("<")
    if "." in prefix or not bracket:
        return text
    body = rest[:-1]
    return f"{prefix}.{body}" if _PRETTY_SYMBOL.fullmatch(body) else text


class TypeParser(AffineSyntaxReader, ABC):
    """Types over the token and affine layers; attributes come from the subclass."""

    def __init__(self, text: str, name: str = "<input>", line_offset: int = 0) -> None:
        super().__init__(text, name, line_offset)
        self.type_aliases: dict[str, Type] = {}
        self.attr_aliases: dict[str, Attribute] = {}  # read here too, inside dialect types
        self.type_cache: dict[str, Type] = {}
        # symbols of the last identity layout (composition) a memref type dropped, as MLIR
        # does; a seed ``alloc`` then drops the operands bound to them
        self.dropped_layout_symbols: int | None = None

    @abstractmethod
    def parse_attribute(self, type_hint: Type | None = None) -> Attribute:
        """An attribute (the attribute section reads it)."""

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
            m = INTEGER_TYPE.match(word)
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
            self.expect(")")
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
        if self.kind != "int" or int_value(self.tok) > _MAX_INT64:
            self.error("expected a 64-bit signed integer or '?'", offset)
        value = int_value(self.tok)
        self.advance()
        return -value if negative else value

    # -- attributes -----------------------------------------------------------------------

    @staticmethod
    def _word_starts_type(word: str) -> bool:
        """Whether a bare word can begin a builtin type (else it is no attribute at all)."""
        return (
            word in _SIMPLE_TYPES
            or word in FLOAT_WIDTHS
            or word in ("memref", "tensor", "vector", "tuple", "complex", "type", "none")
            or INTEGER_TYPE.match(word) is not None
        )

    def _balanced_end(self) -> int:
        """The end of the ``<...>`` body that starts right after the current token."""
        end, opener = balanced_end(self.text, self.end)
        if end < 0:
            self.error(f"unbalanced '{opener}' character in pretty dialect name", self.end)
        return end

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
