"""Implementations that a lower layer calls and a higher layer provides.

Invariant: a :class:`Hook` holds at most one implementation, installed by the higher layer
when it is imported (the printer, the seed syntax, the attribute class of memory spaces);
the ``affine`` package imports every such layer, so a hook is always filled before user
code runs, and an empty one is a loud error rather than a silent fallback.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Hook(Generic[T]):
    """One implementation of ``what``, installed once by the layer that provides it."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._installed: list[T] = []

    def install(self, implementation: T) -> None:
        self._installed[:] = [implementation]

    def get(self) -> T:
        if not self._installed:
            raise RuntimeError(f"no {self.what} installed: import affine first")
        return self._installed[0]
