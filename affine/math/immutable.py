"""The base of the structural value classes (types, attributes, strided layouts).

Invariant: a value class is a ``@dataclass(frozen=True, slots=True, repr=False)`` deriving
from :class:`Immutable`: equal to another of its class with equal fields (those declared
``field(compare=False)`` are derived from the others and do not count), hashable, never
changed, and printed through the printer. A class whose constructor normalises its
arguments writes ``__init__`` and sets its fields with :func:`init_fields`.
"""

from __future__ import annotations

from typing import Any


class Immutable:
    """What value classes share besides their dataclass methods: copies are the value
    itself, and ``repr`` shows the printed form."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def __copy__(self) -> Immutable:
        return self

    def __deepcopy__(self, memo: dict) -> Immutable:
        return self


def init_fields(obj: Immutable, **fields: Any) -> None:
    """Set the fields of a new frozen value (its own ``__init__``'s only way to write them)."""
    for name, value in fields.items():
        object.__setattr__(obj, name, value)
