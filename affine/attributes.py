"""MLIR attributes as immutable, hashable values.

Builtin attributes are modelled structurally (integers, floats, strings, unit, arrays,
dictionaries, dense elements and dense arrays, affine maps, integer sets, types, symbol
references); attributes of other dialects (``#arith.fastmath<fast>``,
``#mydialect.kind<x>``) and locations are kept as their text.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Mapping, Sequence

from affine.affine_map import AffineMap
from affine.immutable import Immutable, init_fields
from affine.integer_set import IntegerSet
from affine.types import F32, F64, I1, I64, INDEX, FloatType, ShapedType, Type


class Attribute(Immutable):
    """Base class: structural equality and hashing over :meth:`_key`."""

    __slots__ = ()

    def __str__(self) -> str:
        from affine.printer import attr_to_str

        return attr_to_str(self)


class IntegerAttr(Attribute):
    """An integer of a given integer or index type; ``i1`` integers print as booleans."""

    __slots__ = ("type", "value")

    value: int
    type: Type

    def __init__(self, value: int, type: Type = I64) -> None:
        init_fields(self, value=int(value), type=type)

    def _key(self) -> tuple:
        return (self.value, self.type)


def BoolAttr(value: bool) -> IntegerAttr:
    return IntegerAttr(1 if value else 0, I1)


def IndexAttr(value: int) -> IntegerAttr:
    return IntegerAttr(value, INDEX)


class FloatAttr(Attribute):
    """A floating point value; ``value`` is the nearest double, ``bits`` the exact encoding."""

    __slots__ = ("bits", "type", "value")

    value: float
    type: FloatType
    bits: int

    def __init__(self, value: float, type: FloatType = F64, bits: int | None = None) -> None:
        if bits is None:
            bits = float_to_bits(value, type)
        else:
            value = bits_to_float(bits, type)
        init_fields(self, value=round_to_type(value, type), type=type, bits=bits)

    def _key(self) -> tuple:
        return (self.bits, self.type)


def float_to_bits(value: float, t: FloatType) -> int:
    """IEEE encoding of ``value`` rounded to the format of ``t`` (round to nearest even)."""
    name = t.name
    if name == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if name == "f32":
        return struct.unpack("<I", _pack_narrow("<f", value))[0]
    if name == "f16":
        return struct.unpack("<H", _pack_narrow("<e", value))[0]
    if name == "bf16":
        if math.isnan(value):
            return 0x7FC0
        bits32 = struct.unpack("<I", _pack_narrow("<f", value))[0]
        rounding = 0x7FFF + ((bits32 >> 16) & 1)
        return ((bits32 + rounding) >> 16) & 0xFFFF
    # Other formats are not modelled bit-exactly; keep the double encoding.
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def _pack_narrow(fmt: str, value: float) -> bytes:
    """``struct.pack`` that rounds values too large for the format to infinity."""
    try:
        return struct.pack(fmt, value)
    except OverflowError:
        return struct.pack(fmt, math.copysign(math.inf, value))


def bits_to_float(bits: int, t: FloatType) -> float:
    name = t.name
    if name == "f32":
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if name == "f16":
        return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
    if name == "bf16":
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    return struct.unpack("<d", struct.pack("<Q", bits & 0xFFFFFFFFFFFFFFFF))[0]


def round_to_type(value: float, t: FloatType) -> float:
    """``value`` rounded to the precision of ``t`` (as a double)."""
    if t.name in ("f32", "f16", "bf16"):
        return bits_to_float(float_to_bits(value, t), t)
    return value


class StringAttr(Attribute):
    __slots__ = ("type", "value")

    value: str
    type: Type | None

    def __init__(self, value: str, type: Type | None = None) -> None:
        init_fields(self, value=value, type=type)

    def _key(self) -> tuple:
        return (self.value, self.type)


class UnitAttr(Attribute):
    __slots__ = ()

    def _key(self) -> tuple:
        return ()


UNIT = UnitAttr()


class ArrayAttr(Attribute):
    __slots__ = ("elements",)

    elements: tuple[Attribute, ...]

    def __init__(self, elements: Iterable[Attribute]) -> None:
        init_fields(self, elements=tuple(elements))

    def _key(self) -> tuple:
        return self.elements

    def __len__(self) -> int:
        return len(self.elements)

    def __getitem__(self, index: int) -> Attribute:
        return self.elements[index]

    def __iter__(self):
        return iter(self.elements)


class DenseArrayAttr(Attribute):
    """``array<i32: 1, 2>``: a 1-d array of integers or floats of one type."""

    __slots__ = ("element_type", "values")

    element_type: Type
    values: tuple

    def __init__(self, element_type: Type, values: Iterable) -> None:
        init_fields(self, element_type=element_type, values=tuple(values))

    def _key(self) -> tuple:
        return (self.element_type, tuple(_bitwise(v) for v in self.values))


class DictionaryAttr(Attribute):
    """Named attributes, kept sorted by name (MLIR's canonical order)."""

    __slots__ = ("entries",)

    entries: tuple[tuple[str, Attribute], ...]

    def __init__(self, entries: Mapping[str, Attribute] | Iterable[tuple[str, Attribute]]) -> None:
        items = entries.items() if isinstance(entries, Mapping) else entries
        init_fields(self, entries=tuple(sorted(items, key=lambda kv: kv[0])))

    def _key(self) -> tuple:
        return self.entries

    def as_dict(self) -> dict[str, Attribute]:
        return dict(self.entries)

    def get(self, name: str, default: Attribute | None = None) -> Attribute | None:
        for key, value in self.entries:
            if key == name:
                return value
        return default

    def __len__(self) -> int:
        return len(self.entries)


class DenseElementsAttr(Attribute):
    """``dense<...> : tensor<...>`` with values stored flat in row-major order.

    ``values`` has one entry for a splat, otherwise ``num_elements`` entries; entries are
    ints, floats, bools or ``(re, im)`` pairs for complex element types.  ``hex`` keeps a
    hexadecimal payload whose element type is not decoded.
    """

    __slots__ = ("hex", "type", "values")

    type: ShapedType
    values: tuple
    hex: str | None

    def __init__(self, type: ShapedType, values: Sequence, hex: str | None = None) -> None:
        init_fields(self, type=type, values=tuple(values), hex=hex)

    def _key(self) -> tuple:
        return (self.type, tuple(_bitwise(v) for v in self.values), self.hex)

    @property
    def is_splat(self) -> bool:
        return self.hex is None and len(self.values) == 1

    def flat_values(self) -> list:
        if self.hex is not None:
            raise ValueError("hexadecimal dense payloads are not decoded")
        if self.is_splat:
            n = self.type.num_elements if self.type.has_static_shape else 1
            return list(self.values) * n
        return list(self.values)


def _bitwise(value):
    """A key equal for equal values and for identical NaNs (NaN != NaN as floats)."""
    if isinstance(value, float):
        return struct.pack("<d", value)
    if isinstance(value, tuple):
        return tuple(_bitwise(v) for v in value)
    return value


class AffineMapAttr(Attribute):
    __slots__ = ("value",)

    value: AffineMap

    def __init__(self, value: AffineMap) -> None:
        init_fields(self, value=value)

    def _key(self) -> tuple:
        return (self.value,)


class IntegerSetAttr(Attribute):
    __slots__ = ("value",)

    value: IntegerSet

    def __init__(self, value: IntegerSet) -> None:
        init_fields(self, value=value)

    def _key(self) -> tuple:
        return (self.value,)


class TypeAttr(Attribute):
    __slots__ = ("value",)

    value: Type

    def __init__(self, value: Type) -> None:
        init_fields(self, value=value)

    def _key(self) -> tuple:
        return (self.value,)


class SymbolRefAttr(Attribute):
    """``@root`` or ``@root::@nested::@leaf``."""

    __slots__ = ("nested", "root")

    root: str
    nested: tuple[str, ...]

    def __init__(self, root: str, nested: Sequence[str] = ()) -> None:
        init_fields(self, root=root, nested=tuple(nested))

    def _key(self) -> tuple:
        return (self.root, self.nested)

    @property
    def leaf(self) -> str:
        return self.nested[-1] if self.nested else self.root


class OpaqueAttr(Attribute):
    """An attribute kept as text: dialect attributes (``#arith.fastmath<fast>``),
    ``dense_resource<...>``, ``sparse<...>`` and the like.  ``type`` is a trailing
    ``: type`` when the attribute has one."""

    __slots__ = ("text", "type")

    text: str
    type: Type | None

    def __init__(self, text: str, type: Type | None = None) -> None:
        init_fields(self, text=text, type=type)

    def _key(self) -> tuple:
        return (self.text, self.type)

    @property
    def dialect(self) -> str:
        return self.text[1:].split(".", 1)[0].split("<", 1)[0]

    @property
    def body(self) -> str:
        """The text between the outer ``<`` and ``>`` (empty when there is none)."""
        start = self.text.find("<")
        return self.text[start + 1 : -1] if start >= 0 else ""


class LocationAttr(Attribute):
    """A source location ``loc(...)`` kept as text."""

    __slots__ = ("text",)

    text: str

    def __init__(self, text: str) -> None:
        init_fields(self, text=text)

    def _key(self) -> tuple:
        return (self.text,)


def int_attr(value: int, type: Type = I64) -> IntegerAttr:
    return IntegerAttr(value, type)


def float_attr(value: float, type: FloatType = F32) -> FloatAttr:
    return FloatAttr(value, type)
