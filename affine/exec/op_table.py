"""A table of functions by op name, filled by a decorator (both backends keep one).

Invariant: each op name maps to one function; registering a name again replaces it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class OpTable(Generic[F]):
    """``@table.register("arith.addf", "arith.addi")`` files a function under op names."""

    def __init__(self) -> None:
        self._by_name: dict[str, F] = {}

    def register(self, *names: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            for name in names:
                self._by_name[name] = fn
            return fn

        return register

    def get(self, name: str) -> F | None:
        return self._by_name.get(name)
