"""Interning of immutable values: one object per structural key, held weakly.

Invariant: while a value is alive, :meth:`InternTable.get` returns it for its key, so equal
values are the same object (``==`` is identity); the table never keeps a value alive, so
values no longer used are freed (keys may hold ``id``s of children, which stay valid while
the value that holds those children is alive).
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from typing import ClassVar, Generic, TypeVar

from affine.math.immutable import Immutable

V = TypeVar("V")
Self = TypeVar("Self", bound="Interned")


class Interned(Immutable):
    """Base of the interned values (expressions, maps, sets): made only by their class's
    constructors (``BUILT_BY``), never by calling the class, so that equal values are one
    object; Jupyter shows them in LaTeX."""

    __slots__ = ("__weakref__",)
    BUILT_BY: ClassVar[str]

    def __new__(cls: type[Self], *args: object, **kwargs: object) -> Self:
        raise TypeError(f"{cls.__name__} values are interned: build them with {cls.BUILT_BY}")

    def _repr_latex_(self) -> str:
        """LaTeX for Jupyter (through sympy, imported on first use)."""
        # lazy: start-up cost (sympy, loaded only for notebooks)
        from affine.math.symbolic import display_latex

        return display_latex(self)


class InternTable(Generic[V]):
    """Values by key, weakly referenced: ``table.get(key)`` or ``table.add(key, value)``."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: weakref.WeakValueDictionary[Hashable, V] = weakref.WeakValueDictionary()

    def get(self, key: Hashable) -> V | None:
        return self._values.get(key)

    def add(self, key: Hashable, value: V) -> V:
        self._values[key] = value
        return value

    def intern(self, key: Hashable, cls: type[V], **fields: object) -> V:
        """The value for ``key``, or a new ``cls`` instance (made without ``__init__``) with
        ``fields`` set, interned under ``key``."""
        value = self._values.get(key)
        if value is None:
            value = object.__new__(cls)
            for name, field in fields.items():
                object.__setattr__(value, name, field)
            self._values[key] = value
        return value

    def __len__(self) -> int:
        return len(self._values)
