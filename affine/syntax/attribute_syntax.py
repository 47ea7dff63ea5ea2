"""The attribute section of the MLIR reader: builtin attributes (numbers, strings, arrays,
dictionaries, symbol references, types, affine maps and integer sets, dense, sparse and
resource elements, dense arrays, locations) and dialect attributes, through attribute
aliases.

Invariant: an attribute read here is the canonical value (:mod:`affine.ir.attributes`)
mlir-opt 22 would build from the same text, or a :class:`~affine.ir.diagnostics.ParseError`
at the offending token.
"""

from __future__ import annotations

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
from affine.ir.diagnostics import ParseError
from affine.ir.registry import lookup_attribute
from affine.ir.types import (
    F64,
    I1,
    I64,
    INDEX,
    ComplexType,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    Type,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.float_formats import SEMANTICS
from affine.syntax.lexer import balanced_end, lex, unescape_string
from affine.syntax.reader import int_value
from affine.syntax.type_syntax import TypeParser


class AttributeParser(TypeParser):
    """Attributes over the type section (which reads the attributes inside types here)."""

    def __init__(self, text: str, name: str = "<input>", line_offset: int = 0) -> None:
        super().__init__(text, name, line_offset)
        self.deferred_aliases: dict[str, int] = {}  # '#loc' aliases used before definition

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
                return self._parse_location(" in inline location")
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
            if type_hint is None and self.accept(":"):  # a given type is not written
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
                if not self.accept("]"):
                    self.wrong_token("expected ',' or ']'")
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
                except ParseError as type_error:
                    self.restore(state)
                    if not self.seed_map_follows():
                        raise  # a function type, as mlir-opt reads it
                    try:
                        result = self._parse_seed_map_or_set()
                    except ParseError as seed_error:
                        if _offset(seed_error) <= _offset(type_error):
                            raise type_error from None  # the type went further
                        raise
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
            attr_type: Type = I64 if type_hint is None else type_hint
            if not isinstance(attr_type, (IntegerType, IndexType, FloatType)):
                self.error("integer literal not valid for specified type", offset)
            if type_hint is None and self.accept(":"):  # a given type is not written
                attr_type = self.parse_type()
            if isinstance(attr_type, FloatType):
                bits = self._float_bits_of_integer(text, negative, offset, attr_type)
                return FloatAttr.from_bits(bits, attr_type)
            value = int_value(text)
            self._check_integer_range(value, negative, attr_type, offset)
            return IntegerAttr(-value if negative else value, attr_type)
        if self.kind == "float":
            value_f = float(self.tok)
            self.advance()
            if negative:
                value_f = -value_f
            written = type_hint
            if type_hint is None:
                written = self.parse_type() if self.accept(":") else F64
            if not isinstance(written, FloatType):
                self.error("floating point value not valid for specified type")
            float_type = written
            return FloatAttr(value_f, float_type)
        self.error("expected constant integer or floating point value")

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
        own_syntax = lookup_attribute(self.tok[1:])
        if own_syntax is not None and self.text.startswith("<", self.end):
            self.advance()
            saved, self.custom_op = self.custom_op, None  # the dialect's errors, not the op's
            try:
                return own_syntax(self)
            finally:
                self.custom_op = saved
        symbol = self._parse_dialect_symbol(self.attr_aliases)
        if not isinstance(symbol, str):
            return symbol
        attr_type = self.parse_type() if self.accept(":") else None
        return OpaqueAttr(symbol, attr_type)

    def seed_map_follows(self) -> bool:
        """Whether the ``(...)`` group at the current token is followed as a seed-syntax map
        or set's dimensions are: by ``->`` or ``:``, after a ``[...]`` of symbols if any."""
        end, _ = balanced_end(self.text, self.start)
        if end < 0:
            return False
        kind, start, _ = lex(self.text, end)
        if kind == "[":
            end, _ = balanced_end(self.text, start)
            if end < 0:
                return False
            kind = lex(self.text, end)[0]
        return kind in ("->", ":")

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

    def _parse_location(self, context: str = " in location") -> LocationAttr:
        """``loc(...)``, checked against mlir-opt's location grammar and kept as text
        (``context`` ends the parenthesis errors: an op's location, or one written as an
        attribute, "in inline location")."""
        start = self.start
        self.advance()
        self.expect("(", context)
        if self.kind == "#" and "." not in self.tok:
            if self.tok[1:] not in self.attr_aliases:  # may be defined later in the file
                self.deferred_aliases.setdefault(self.tok[1:], self.start)
            self.advance()
        else:
            self._parse_location_instance()
        if self.kind != ")":
            self.wrong_token(f"expected ')'{context}")
        end = self.end
        self.advance()
        return LocationAttr(self.text[start:end])

    def _parse_location_instance(self) -> None:
        """One location: ``unknown``, ``"name"(child)``, ``"file":line[:col[ to ...]]``,
        ``callsite(a at b)``, ``fused<metadata>[a, b]`` or an attribute alias."""
        if self.kind == "#":
            attr = self.parse_attribute()
            if not isinstance(attr, LocationAttr):
                self.error(f"expected location attribute, but got{attr}")
        elif self.kind == "str":
            self._parse_name_or_file_location()
        elif self.kind == "id" and self.tok == "unknown":
            self.advance()
        elif self.kind == "id" and self.tok == "callsite":
            self.advance()
            self.expect("(", " in callsite location")
            self._parse_location_instance()
            if not self.accept_keyword("at"):
                self.wrong_token("expected 'at' in callsite location")
            self._parse_location_instance()
            self.expect(")", " in callsite location")
        elif self.kind == "id" and self.tok == "fused":
            self.advance()
            if self.accept("<"):
                self.parse_attribute()
                self.expect(">", " after fused location metadata")
            self.expect("[", " in fused location")
            while True:
                self._parse_location_instance()
                if not self.accept(","):
                    break
            self.expect("]", " in fused location")
        else:
            self.wrong_token("expected location instance")

    def _parse_name_or_file_location(self) -> None:
        self.advance()
        if self.kind == "::":  # mlir-opt reads two colons: the second is not a line number
            self.error("expected integer line number in FileLineColRange", self.start + 1)
        if self.accept(":"):
            self._expect_location_number("line")
            if not self.accept(":"):
                return
            self._expect_location_number("column")
            if not self.accept_keyword("to"):
                return
            if self.kind == "int":
                self._expect_location_number("line")
            if not self.accept(":"):
                self.wrong_token("expected either integer or `:` post `to` in FileLineColRange")
            self._expect_location_number("column")
        elif self.accept("("):
            self._parse_location_instance()
            self.expect(")", " after child location of NameLoc")

    def _expect_location_number(self, what: str) -> None:
        if self.kind != "int" or int_value(self.tok) >= 2**32:
            self.wrong_token(f"expected integer {what} number in FileLineColRange")
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
                    self.wrong_token("expected attribute name")
                self.advance()
                if name in seen:
                    self.error(f"duplicate key '{name}' in dictionary attribute", name_start)
                seen.add(name)
                if self.accept("="):
                    entries.append((name, self.parse_attribute()))
                elif self.kind == ":" and self.seed_functions:
                    # seed syntax, in a seed-syntax function: `{name: value}`
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
            value_i = int_value(self.tok)
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
                    values.append(self.parse_integer("integer literal"))
                if not self.accept(","):
                    break
            self.expect(">", " to close an array attribute")
        if isinstance(element, FloatType):
            return DenseArrayAttr(element, (), values)
        return DenseArrayAttr(element, values)


def _offset(error: ParseError) -> int:
    return -1 if error.location is None else error.location.offset


def _symbol_name(token: str) -> str:
    body = token[1:]
    return unescape_string(body) if body.startswith('"') else body


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
