"""MLIR types as immutable, hashable values.

Builtin types (``index``, ``iN``/``siN``/``uiN``, float types, ``vector``, ``tensor``,
``memref``, ``tuple``, ``complex``, function types, ``none``) are modelled structurally;
types of other dialects are kept as :class:`OpaqueType` text.

A :class:`MemRefType` layout is either empty (identity), a *composition* of affine maps
(the seed specification's index maps followed by a layout map; modern MLIR has exactly
one), or a :class:`StridedLayout`.  :meth:`MemRefType.layout_map` composes it into the one
map from indices to the linear (or multi-dimensional) physical position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from affine.ir.hooks import Hook
from affine.ir.printing import printer
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim, symbol
from affine.math.immutable import Immutable, init_fields

if TYPE_CHECKING:
    from affine.ir.attributes import Attribute

DYNAMIC = -(2**63)  # a ``?`` dimension size, stride or offset (MLIR's ShapedType::kDynamic)


# Memory spaces given as integers become ``IntegerAttr(n, i64)``: IntegerAttr is defined in
# affine.ir.attributes, which builds on this module, and registers itself here.
_INTEGER_ATTR: Hook[type[Attribute]] = Hook("IntegerAttr class")

register_integer_attr = _INTEGER_ATTR.install  # called once by affine.ir.attributes


def _integer_attr() -> Any:
    return _INTEGER_ATTR.get()


class Type(Immutable):
    """Base class of types: each is a frozen dataclass, equal to another of its class with
    equal fields."""

    __slots__ = ()

    def __str__(self) -> str:
        return printer().type_to_str(self)


@dataclass(frozen=True, slots=True, repr=False)
class IndexType(Type):
    pass


@dataclass(frozen=True, slots=True, repr=False)
class NoneType(Type):
    pass


@dataclass(frozen=True, slots=True, repr=False)
class IntegerType(Type):
    """``iN`` (signless), ``siN`` or ``uiN``."""

    width: int
    signedness: str = ""  # "", "s" or "u"


@dataclass(frozen=True, slots=True, repr=False)
class FloatType(Type):
    """A floating point type named as in MLIR: ``f16``, ``bf16``, ``f32``, ``f8E4M3FN``..."""

    name: str

    @property
    def width(self) -> int:
        return FLOAT_WIDTHS[self.name]


FLOAT_WIDTHS = {
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19,
    "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
    "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8, "f4E2M1FN": 4, "f6E2M3FN": 6,
    "f6E3M2FN": 6,
}  # fmt: skip


@dataclass(frozen=True, slots=True, repr=False)
class ComplexType(Type):
    element_type: Type


@dataclass(frozen=True, slots=True, repr=False)
class TupleType(Type):
    types: tuple[Type, ...]

    def __init__(self, types: Sequence[Type]) -> None:
        init_fields(self, types=tuple(types))


@dataclass(frozen=True, slots=True, repr=False)
class FunctionType(Type):
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __init__(self, inputs: Sequence[Type], results: Sequence[Type]) -> None:
        init_fields(self, inputs=tuple(inputs), results=tuple(results))


class ShapedType(Type):
    """Common part of vector, tensor and memref types."""

    __slots__ = ()

    shape: tuple[int, ...] | None
    element_type: Type

    @property
    def rank(self) -> int:
        if self.shape is None:
            raise ValueError(f"{self} is unranked")
        return len(self.shape)

    @property
    def has_rank(self) -> bool:
        return self.shape is not None

    @property
    def has_static_shape(self) -> bool:
        return self.shape is not None and DYNAMIC not in self.shape

    @property
    def num_dynamic_dims(self) -> int:
        return 0 if self.shape is None else self.shape.count(DYNAMIC)

    def is_dynamic_dim(self, index: int) -> bool:
        return self.shape is not None and self.shape[index] == DYNAMIC

    @property
    def num_elements(self) -> int:
        if not self.has_static_shape:
            raise ValueError(f"{self} does not have a static shape")
        n = 1
        for s in self.shape:  # type: ignore[union-attr]  # has_static_shape above implies a shape
            n *= s
        return n


@dataclass(frozen=True, slots=True, repr=False)
class VectorType(ShapedType):
    shape: tuple[int, ...]
    element_type: Type
    scalable: tuple[bool, ...]

    def __init__(
        self, shape: Sequence[int], element_type: Type, scalable: Sequence[bool] | None = None
    ) -> None:
        shape = tuple(shape)
        init_fields(
            self,
            shape=shape,
            element_type=element_type,
            scalable=tuple(scalable) if scalable else (False,) * len(shape),
        )


@dataclass(frozen=True, slots=True, repr=False)
class TensorType(ShapedType):
    """Ranked (``shape`` a tuple) or unranked (``shape`` None) tensor."""

    shape: tuple[int, ...] | None
    element_type: Type
    encoding: Attribute | None

    def __init__(
        self, shape: Sequence[int] | None, element_type: Type, encoding: Attribute | None = None
    ) -> None:
        init_fields(
            self,
            shape=None if shape is None else tuple(shape),
            element_type=element_type,
            encoding=encoding,
        )


@dataclass(frozen=True, slots=True, repr=False)
class StridedLayout(Immutable):
    """``strided<[s0, s1, ...], offset: o>``; ``DYNAMIC`` entries are ``?``."""

    strides: tuple[int, ...]
    offset: int

    def __init__(self, strides: Sequence[int], offset: int = 0) -> None:
        init_fields(self, strides=tuple(strides), offset=offset)

    def __repr__(self) -> str:
        return printer().strided_to_str(self)

    def to_affine_map(self) -> AffineMap:
        """The equivalent map ``offset + sum(d_i * stride_i)`` built as MLIR builds it
        (``makeStridedLinearLayoutMap``): each ``?`` becomes a new symbol, offset first."""
        n_symbols = 0
        if self.offset == DYNAMIC:
            expr: AffineExpr = symbol(0)
            n_symbols = 1
        else:
            expr = constant(self.offset)
        for i, stride in enumerate(self.strides):
            if stride == DYNAMIC:
                expr = expr + dim(i) * symbol(n_symbols)
                n_symbols += 1
            else:
                expr = expr + dim(i) * stride
        return AffineMap.get(len(self.strides), n_symbols, [expr])


Layout = tuple[AffineMap, ...] | StridedLayout  # () is the identity layout


def _is_identity_layout(m: AffineMap) -> bool:
    """MLIR's ``AffineMap::isIdentity``: results ``d0, d1, ...``; symbols (and a seed map's
    ``size`` clause) do not matter."""
    return m.num_dims == len(m.results) and all(
        r.kind == "dim" and r.value == i for i, r in enumerate(m.results)
    )


def _is_identity_composition(layout: tuple[AffineMap, ...]) -> bool:
    """Whether the maps of a layout composition, applied first to last, are the identity
    (each map's result count is the next one's dimension count, as the reader checked)."""
    if all(_is_identity_layout(m) for m in layout):
        return True
    if any(m.num_results != n.num_dims for m, n in pairwise(layout)):
        return False
    composed = layout[0]
    for m in layout[1:]:
        composed = _compose_symbols_in_order(m, composed)
    return _is_identity_layout(composed)


@dataclass(frozen=True, slots=True, repr=False)
class MemRefType(ShapedType):
    """``memref<shape x element, layout, memory-space>``.

    ``layout`` is ``()`` for the identity layout, a tuple of affine maps (a composition,
    applied first to last) or a :class:`StridedLayout`.  ``memory_space`` is None (the
    default space 0) or an attribute (an integer attribute for numbered spaces).
    """

    shape: tuple[int, ...]
    element_type: Type
    layout: Layout
    memory_space: Attribute | None

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Type,
        layout: Layout | AffineMap | None = None,
        memory_space: Attribute | int | None = None,
    ) -> None:
        if layout is None:
            layout = ()
        elif isinstance(layout, AffineMap):
            layout = (layout,)
        if isinstance(layout, tuple) and _is_identity_composition(layout):
            layout = ()  # as in MLIR, identity maps (whatever their symbols) are dropped
        if isinstance(memory_space, int):
            memory_space = _integer_attr()(memory_space, I64) if memory_space else None
        init_fields(
            self,
            shape=tuple(shape),
            element_type=element_type,
            layout=layout,
            memory_space=memory_space,
        )

    @property
    def memory_space_number(self) -> int | None:
        """The memory space as an integer (0 by default), or None if it is not numeric."""
        IntegerAttr = _integer_attr()
        if self.memory_space is None:
            return 0
        if isinstance(self.memory_space, IntegerAttr):
            return self.memory_space.value
        return None

    @property
    def has_identity_layout(self) -> bool:
        return self.layout == ()

    @property
    def layout_maps(self) -> tuple[AffineMap, ...]:
        """The composition as maps (a strided layout becomes one map)."""
        if isinstance(self.layout, StridedLayout):
            return (self.layout.to_affine_map(),)
        return self.layout

    def layout_map(self) -> AffineMap:
        """The whole composition as one map (identity when there is no layout).

        Maps are applied first to last; the composed map's symbols are those of the
        first map, then the second, and so on.
        """
        maps = self.layout_maps
        if not maps:
            return AffineMap.identity(len(self.shape))
        result = maps[0]
        for m in maps[1:]:
            result = _compose_symbols_in_order(m, result)
        if result.size is not None:
            result = AffineMap.get(result.num_dims, result.num_symbols, result.results)
        return result

    def with_layout(self, layout: Layout | AffineMap | None) -> MemRefType:
        return MemRefType(self.shape, self.element_type, layout, self.memory_space)

    def with_shape(self, shape: Sequence[int]) -> MemRefType:
        return MemRefType(shape, self.element_type, self.layout, self.memory_space)

    def with_memory_space(self, memory_space: Attribute | int | None) -> MemRefType:
        return MemRefType(self.shape, self.element_type, self.layout, memory_space)


def _compose_symbols_in_order(outer: AffineMap, inner: AffineMap) -> AffineMap:
    """``outer ∘ inner`` with ``inner``'s symbols first, then ``outer``'s."""
    composed = outer.compose(inner)  # symbols: outer's, then inner's
    n_outer = outer.num_symbols
    n_inner = inner.num_symbols
    reorder = [symbol(n_inner + i) for i in range(n_outer)] + [symbol(i) for i in range(n_inner)]
    return composed.replace(None, reorder, composed.num_dims, composed.num_symbols)


@dataclass(frozen=True, slots=True, repr=False)
class UnrankedMemRefType(ShapedType):
    element_type: Type
    memory_space: Attribute | None

    shape = None

    def __init__(self, element_type: Type, memory_space: Attribute | int | None = None) -> None:
        IntegerAttr = _integer_attr()
        if isinstance(memory_space, int):
            memory_space = IntegerAttr(memory_space, I64) if memory_space else None
        elif isinstance(memory_space, IntegerAttr) and memory_space.value == 0:
            memory_space = None  # as for ranked memrefs, the default space 0 is dropped
        init_fields(self, element_type=element_type, memory_space=memory_space)


@dataclass(frozen=True, slots=True, repr=False)
class OpaqueType(Type):
    """A type of another dialect, kept as its text (``!llvm.ptr``, ``!mydialect.t<...>``)."""

    text: str

    @property
    def dialect(self) -> str:
        return self.text[1:].split(".", 1)[0].split("<", 1)[0]


INDEX = IndexType()
NONE = NoneType()
I1 = IntegerType(1)
I8 = IntegerType(8)
I16 = IntegerType(16)
I32 = IntegerType(32)
I64 = IntegerType(64)
F16 = FloatType("f16")
BF16 = FloatType("bf16")
F32 = FloatType("f32")
F64 = FloatType("f64")


def is_integer_like(t: Type) -> bool:
    """Integer or index, or a vector/tensor of them."""
    if isinstance(t, (VectorType, TensorType)):
        t = t.element_type
    return isinstance(t, (IntegerType, IndexType))


def is_float_like(t: Type) -> bool:
    if isinstance(t, (VectorType, TensorType)):
        t = t.element_type
    return isinstance(t, FloatType)


def element_type_of(t: Type) -> Type:
    return t.element_type if isinstance(t, ShapedType) else t
