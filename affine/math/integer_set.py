"""Integer sets ``(d..)[s..] : (e0 >= 0, e1 == 0, ...)``: immutable, interned conjunctions.

Emptiness, bounds, union and intersection are exact integer questions answered through ISL
by :mod:`poly`; this module holds only the value type and the operations that need no
solver (evaluation, substitution, printing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from affine.math.affine_map import AffineExprs, _check_ids, print_ids
from affine.math.expr import AffineExpr, ExprLike, _as_expr, constant, print_expr
from affine.math.interning import InternTable


class IntegerSet(AffineExprs):
    """An interned conjunction of affine constraints over dimensions and symbols."""

    __slots__ = ("constraints", "eq_flags", "num_dims", "num_symbols")
    BUILT_BY = "IntegerSet.get(...)"

    num_dims: int
    num_symbols: int
    constraints: tuple[AffineExpr, ...]
    eq_flags: tuple[bool, ...]  # True: ``expr == 0``; False: ``expr >= 0``

    _table: InternTable[IntegerSet] = InternTable()

    @classmethod
    def get(
        cls,
        num_dims: int,
        num_symbols: int,
        constraints: Iterable[ExprLike],
        eq_flags: Iterable[bool],
    ) -> IntegerSet:
        exprs = tuple(_as_expr(c) for c in constraints)
        flags = tuple(bool(f) for f in eq_flags)
        if len(exprs) != len(flags):
            raise ValueError("an integer set needs one equality flag per constraint")
        for c in exprs:
            _check_ids(c, num_dims, num_symbols, "set")
        return cls._table.intern(
            (num_dims, num_symbols, exprs, flags),
            cls,
            num_dims=num_dims,
            num_symbols=num_symbols,
            constraints=exprs,
            eq_flags=flags,
        )

    @classmethod
    def empty(cls, num_dims: int = 0, num_symbols: int = 0) -> IntegerSet:
        """MLIR's canonical empty set ``(1 == 0)``."""
        return cls.get(num_dims, num_symbols, [constant(1)], [True])

    @classmethod
    def universe(cls, num_dims: int = 0, num_symbols: int = 0) -> IntegerSet:
        return cls.get(num_dims, num_symbols, [], [])

    @property
    def exprs(self) -> tuple[AffineExpr, ...]:
        return self.constraints

    def with_exprs(
        self, num_dims: int, num_symbols: int, exprs: Iterable[AffineExpr]
    ) -> IntegerSet:
        return IntegerSet.get(num_dims, num_symbols, exprs, self.eq_flags)

    @property
    def num_constraints(self) -> int:
        return len(self.constraints)

    def is_trivially_empty(self) -> bool:
        """True when some constraint is a constant that fails (no solver involved)."""
        for c, eq in zip(self.constraints, self.eq_flags):
            if c.kind == "const" and ((eq and c.value != 0) or (not eq and c.value < 0)):
                return True
        return False

    def contains(self, dims: Sequence[int] = (), symbols: Sequence[int] = ()) -> bool:
        """Whether the integer point satisfies every constraint."""
        for c, eq in zip(self.constraints, self.eq_flags):
            value = c.evaluate(dims, symbols)
            if (eq and value != 0) or (not eq and value < 0):
                return False
        return True

    __call__ = contains

    def __str__(self) -> str:
        return print_set(self)

    def __reduce__(self) -> tuple:
        return (IntegerSet.get, (self.num_dims, self.num_symbols, self.constraints, self.eq_flags))


def print_set(s: IntegerSet) -> str:
    """``(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)`` as mlir-opt prints it."""
    body = ", ".join(
        print_expr(c) + (" == 0" if eq else " >= 0") for c, eq in zip(s.constraints, s.eq_flags)
    )
    return print_ids(s.num_dims, s.num_symbols) + " : (" + body + ")"
