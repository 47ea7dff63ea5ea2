"""MLIR attributes as immutable, hashable values.

Builtin attributes are modelled structurally (integers, floats, strings, unit, arrays,
dictionaries, dense elements and dense arrays, affine maps, integer sets, types, symbol
references); attributes of other dialects (``#arith.fastmath<fast>``,
``#mydialect.kind<x>``) and locations are kept as their text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from affine.ir.printing import printer
from affine.ir.types import (
    F32,
    F64,
    I1,
    I64,
    INDEX,
    ComplexType,
    FloatType,
    IntegerType,
    ShapedType,
    Type,
    register_integer_attr,
)
from affine.math.affine_map import AffineMap
from affine.math.float_formats import SEMANTICS
from affine.math.immutable import Immutable, init_fields
from affine.math.integer_set import IntegerSet


class Attribute(Immutable):
    """Base class of attributes: each is a frozen dataclass, equal to another of its class
    with equal fields."""

    __slots__ = ()

    def __str__(self) -> str:
        return printer().attr_to_str(self)


@dataclass(frozen=True, slots=True, repr=False)
class IntegerAttr(Attribute):
    """An integer of a given integer or index type; ``i1`` integers print as booleans."""

    value: int
    type: Type

    def __init__(self, value: int, type: Type = I64) -> None:
        value = int(value)
        if isinstance(type, IntegerType) and not type.signedness and type.width >= 1:
            value = signless(value, type)
        init_fields(self, value=value, type=type)


def signless(value, t: IntegerType):
    """A signless integer is its bits read as signed, as MLIR prints it (255 : i8 is -1; an
    i1 is 0 or 1); booleans and non-integers (a dense literal of a wrong kind) are left
    alone."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    if t.width == 1:
        return value & 1  # i1 prints as true / false
    half = 1 << (t.width - 1)
    return (value + half) % (half << 1) - half


def BoolAttr(value: bool) -> IntegerAttr:
    return IntegerAttr(1 if value else 0, I1)


def IndexAttr(value: int) -> IntegerAttr:
    return IntegerAttr(value, INDEX)


@dataclass(frozen=True, slots=True, repr=False)
class FloatAttr(Attribute):
    """A value of a float type: ``bits`` is its exact encoding (the source of truth: equality
    and printing use it), ``value`` the nearest Python float.

    ``FloatAttr(x, t)`` rounds the double ``x`` to ``t`` as APFloat converts it (to nearest,
    ties to even); :meth:`from_bits` takes an encoding as it is."""

    value: float = field(compare=False)  # decoded from bits
    type: FloatType
    bits: int

    def __init__(self, value: float, type: FloatType = F64, bits: int | None = None) -> None:
        sem = SEMANTICS[type.name]
        bits = sem.from_double(value) if bits is None else sem.canonical(bits)
        init_fields(self, value=sem.to_double(bits), type=type, bits=bits)

    @classmethod
    def from_bits(cls, bits: int, type: FloatType) -> FloatAttr:
        """The value of ``type`` encoded by ``bits`` (as APFloat reads it: f80 patterns it
        does not write come out canonical)."""
        return cls(0.0, type, bits)


@dataclass(frozen=True, slots=True, repr=False)
class StringAttr(Attribute):
    value: str
    type: Type | None = None


@dataclass(frozen=True, slots=True, repr=False)
class UnitAttr(Attribute):
    pass


UNIT = UnitAttr()


@dataclass(frozen=True, slots=True, repr=False)
class ArrayAttr(Attribute):
    elements: tuple[Attribute, ...]

    def __init__(self, elements: Iterable[Attribute]) -> None:
        init_fields(self, elements=tuple(elements))

    def __len__(self) -> int:
        return len(self.elements)

    def __getitem__(self, index: int) -> Attribute:
        return self.elements[index]

    def __iter__(self):
        return iter(self.elements)


@dataclass(frozen=True, slots=True, repr=False)
class DenseArrayAttr(Attribute):
    """``array<i32: 1, 2>``: a 1-d array of integers or floats of one type.

    For a float type ``bits`` holds the exact encodings (the source of truth) and ``values``
    the nearest Python floats; ``values`` given without ``bits`` are rounded to the type."""

    element_type: Type
    values: tuple = field(compare=False)  # compared through exact
    bits: tuple[int, ...] | None = field(compare=False)
    exact: tuple = field(repr=False)  # bits, or values when there are no bits

    def __init__(
        self, element_type: Type, values: Iterable, bits: Iterable[int] | None = None
    ) -> None:
        values, bits = _float_entries(element_type, values, bits)
        exact = values if bits is None else bits
        init_fields(self, element_type=element_type, values=values, bits=bits, exact=exact)


@dataclass(frozen=True, slots=True, repr=False)
class DictionaryAttr(Attribute):
    """Named attributes, kept sorted by name (MLIR's canonical order)."""

    entries: tuple[tuple[str, Attribute], ...]

    def __init__(self, entries: Mapping[str, Attribute] | Iterable[tuple[str, Attribute]]) -> None:
        items = entries.items() if isinstance(entries, Mapping) else entries
        init_fields(self, entries=tuple(sorted(items, key=lambda kv: kv[0])))

    def as_dict(self) -> dict[str, Attribute]:
        return dict(self.entries)

    def get(self, name: str, default: Attribute | None = None) -> Attribute | None:
        for key, value in self.entries:
            if key == name:
                return value
        return default

    def __len__(self) -> int:
        return len(self.entries)


@dataclass(frozen=True, slots=True, repr=False)
class DenseElementsAttr(Attribute):
    """``dense<...> : tensor<...>`` with values stored flat in row-major order.

    ``values`` has one entry for a splat, otherwise ``num_elements`` entries; entries are
    ints, floats, bools or ``(re, im)`` pairs for complex element types.  Elements that are
    all equal are kept as a splat, as MLIR stores them.  For float (and complex float)
    elements ``bits`` holds the exact encodings (the source of truth, pairs for complex) and
    ``values`` the nearest Python floats; ``values`` given without ``bits`` are rounded to
    the element type.  ``hex`` keeps a hexadecimal payload whose element type is not decoded.
    """

    type: ShapedType
    values: tuple = field(compare=False)  # compared through exact
    hex: str | None
    bits: tuple | None = field(compare=False)
    exact: tuple = field(repr=False)  # bits, or values when there are no bits

    def __init__(
        self,
        type: ShapedType,
        values: Sequence,
        hex: str | None = None,
        bits: Sequence | None = None,
    ) -> None:
        if hex is None:
            values, bits = _float_entries(type.element_type, values, bits)
            entries = values if bits is None else bits
            if len(entries) > 1 and entries.count(entries[0]) == len(entries):
                values, bits = values[:1], (None if bits is None else bits[:1])
        else:
            values, bits = tuple(values), None
        exact = values if bits is None else bits
        init_fields(self, type=type, values=values, hex=hex, bits=bits, exact=exact)

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


def _float_entries(
    element: Type, values: Iterable, bits: Iterable | None
) -> tuple[tuple, tuple | None]:
    """``(values, bits)`` of the entries of an array of ``element``: for float and complex
    float elements the encodings (from ``bits``, or ``values`` rounded to the type) and the
    nearest Python floats (pairs for complex), otherwise ``(values, None)``."""
    complex_parts = isinstance(element, ComplexType)
    scalar = element.element_type if isinstance(element, ComplexType) else element

    def each(convert: Callable[[Any], Any], entries: Iterable) -> tuple:
        """``convert`` applied to every entry (to both parts of a complex one)."""
        if complex_parts:
            return tuple((convert(re), convert(im)) for re, im in entries)
        return tuple(convert(v) for v in entries)

    if isinstance(scalar, IntegerType) and not scalar.signedness and scalar.width >= 1:
        return each(lambda v: signless(v, scalar), values), None
    if not isinstance(scalar, FloatType):
        return tuple(values), None
    sem = SEMANTICS[scalar.name]
    bits = each(sem.from_double, values) if bits is None else each(sem.canonical, bits)
    return each(sem.to_double, bits), bits


@dataclass(frozen=True, slots=True, repr=False)
class SparseElementsAttr(Attribute):
    """``sparse<indices, values> : type``: ``values[i]`` sits at row ``i`` of ``indices``
    (an i64 tensor of shape ``[N, rank]``, or ``[N]`` for rank 1), zero elsewhere; both
    ``None`` for ``sparse<>``."""

    type: ShapedType
    indices: DenseElementsAttr | None
    values: DenseElementsAttr | None


@dataclass(frozen=True, slots=True, repr=False)
class AffineMapAttr(Attribute):
    value: AffineMap


@dataclass(frozen=True, slots=True, repr=False)
class IntegerSetAttr(Attribute):
    value: IntegerSet


@dataclass(frozen=True, slots=True, repr=False)
class TypeAttr(Attribute):
    value: Type


@dataclass(frozen=True, slots=True, repr=False)
class SymbolRefAttr(Attribute):
    """``@root`` or ``@root::@nested::@leaf``."""

    root: str
    nested: tuple[str, ...]

    def __init__(self, root: str, nested: Sequence[str] = ()) -> None:
        init_fields(self, root=root, nested=tuple(nested))

    @property
    def leaf(self) -> str:
        return self.nested[-1] if self.nested else self.root


@dataclass(frozen=True, slots=True, repr=False)
class OpaqueAttr(Attribute):
    """An attribute kept as text: dialect attributes (``#arith.fastmath<fast>``),
    ``dense_resource<...>``, ``sparse<...>`` and the like.  ``type`` is a trailing
    ``: type`` when the attribute has one."""

    text: str
    type: Type | None = None

    @property
    def dialect(self) -> str:
        return self.text[1:].split(".", 1)[0].split("<", 1)[0]

    @property
    def body(self) -> str:
        """The text between the outer ``<`` and ``>`` (empty when there is none)."""
        start = self.text.find("<")
        return self.text[start + 1 : -1] if start >= 0 else ""


@dataclass(frozen=True, slots=True, repr=False)
class LocationAttr(Attribute):
    """A source location ``loc(...)`` kept as text."""

    text: str


def int_attr(value: int, type: Type = I64) -> IntegerAttr:
    return IntegerAttr(value, type)


def float_attr(value: float, type: FloatType = F32) -> FloatAttr:
    return FloatAttr(value, type)


register_integer_attr(IntegerAttr)
