"""The base of the immutable value classes (types, attributes): equality by key, cached hash."""

from __future__ import annotations

from typing import Any


class Immutable:
    """Structural equality and hashing over :meth:`_key`; fields are set once, by :func:`init_fields`."""

    __slots__ = ("_hash",)

    def _key(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and self._key() == other._key())

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash((type(self).__name__, self._key()))
            object.__setattr__(self, "_hash", h)
            return h

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def __copy__(self) -> Immutable:
        return self

    def __deepcopy__(self, memo: dict) -> Immutable:
        return self


def init_fields(obj: Immutable, **fields: Any) -> None:
    """Set the fields of a new immutable object (its constructor's only way to write them)."""
    for name, value in fields.items():
        object.__setattr__(obj, name, value)
