"""Affine maps ``(d0, ..., d{n-1})[s0, ..., s{m-1}] -> (e0, ..., e{k-1})``: immutable, interned.

A map may be semi-affine (its results use symbols multiplicatively).  The 2018-19 seed
specification also gives maps an optional ``size`` tuple bounding each result dimension
(``size (10, s0)``, an entry may be ``min(...)`` of several symbolic expressions); it is kept
in :attr:`AffineMap.size` and dropped when printing modern MLIR, which has no such notion.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from affine.math.expr import (
    AffineExpr,
    ExprLike,
    _as_expr,
    constant,
    dim,
    print_expr,
    symbol,
)
from affine.math.interning import Interned, InternTable

SizeEntry = tuple[AffineExpr, ...]  # the minimum of the listed expressions
F = TypeVar("F", bound="AffineExprs")


class AffineExprs(Interned):
    """Base of the interned tuples of affine expressions over ``num_dims`` dimensions and
    ``num_symbols`` symbols (a map's results, a set's constraints): the operations that
    rewrite every expression alike."""

    __slots__ = ()

    num_dims: int
    num_symbols: int

    @property
    def exprs(self) -> tuple[AffineExpr, ...]:
        raise NotImplementedError

    def with_exprs(self: F, num_dims: int, num_symbols: int, exprs: Iterable[AffineExpr]) -> F:
        """The value of the same kind over ``exprs`` and the given dim/symbol counts."""
        raise NotImplementedError

    @property
    def num_inputs(self) -> int:
        return self.num_dims + self.num_symbols

    def used_dims(self) -> frozenset[int]:
        return frozenset().union(*(e.used_dims() for e in self.exprs))

    def used_symbols(self) -> frozenset[int]:
        return frozenset().union(*(e.used_symbols() for e in self.exprs))

    def replace(
        self: F,
        dims: Sequence[AffineExpr] | None,
        symbols: Sequence[AffineExpr] | None,
        num_dims: int,
        num_symbols: int,
    ) -> F:
        """Substitute into every expression; the result has the given dim/symbol counts."""
        return self.with_exprs(
            num_dims, num_symbols, [e.replace(dims, symbols) for e in self.exprs]
        )

    def shift_dims(self: F, shift: int, offset: int = 0) -> F:
        """Insert ``shift`` new dimensions at position ``offset``."""
        return self.with_exprs(
            self.num_dims + shift,
            self.num_symbols,
            [e.shift_dims(self.num_dims, shift, offset) for e in self.exprs],
        )

    def shift_symbols(self: F, shift: int, offset: int = 0) -> F:
        """Insert ``shift`` new symbols at position ``offset``."""
        return self.with_exprs(
            self.num_dims,
            self.num_symbols + shift,
            [e.shift_symbols(self.num_symbols, shift, offset) for e in self.exprs],
        )


class AffineMap(AffineExprs):
    """An interned affine map.  Construct with :meth:`AffineMap.get` and friends."""

    __slots__ = ("num_dims", "num_symbols", "results", "size")
    BUILT_BY = "AffineMap.get(...)"

    num_dims: int
    num_symbols: int
    results: tuple[AffineExpr, ...]
    size: tuple[SizeEntry, ...] | None

    _table: InternTable[AffineMap] = InternTable()

    @classmethod
    def get(
        cls,
        num_dims: int,
        num_symbols: int,
        results: Iterable[ExprLike],
        size: Iterable[AffineExpr | Sequence[AffineExpr]] | None = None,
    ) -> AffineMap:
        exprs = tuple(_as_expr(r) for r in results)
        sizes: tuple[SizeEntry, ...] | None = None
        if size is not None:
            sizes = tuple(
                (entry,) if isinstance(entry, AffineExpr) else tuple(entry) for entry in size
            )
        for r in exprs:
            _check_ids(r, num_dims, num_symbols, "map")
        return cls._table.intern(
            (num_dims, num_symbols, exprs, sizes),
            cls,
            num_dims=num_dims,
            num_symbols=num_symbols,
            results=exprs,
            size=sizes,
        )

    @classmethod
    def identity(cls, num_dims: int) -> AffineMap:
        return cls.get(num_dims, 0, [dim(i) for i in range(num_dims)])

    @classmethod
    def minor_identity(cls, num_dims: int, num_results: int) -> AffineMap:
        """``(d0..d{n-1}) -> (d{n-k}..d{n-1})``."""
        return cls.get(num_dims, 0, [dim(i) for i in range(num_dims - num_results, num_dims)])

    @classmethod
    def constant_map(cls, value: int) -> AffineMap:
        return cls.get(0, 0, [constant(value)])

    @classmethod
    def symbol_identity(cls) -> AffineMap:
        """``()[s0] -> (s0)``, the map of a bound written as a single SSA symbol."""
        return cls.get(0, 1, [symbol(0)])

    @classmethod
    def permutation(cls, perm: Sequence[int]) -> AffineMap:
        """``(d0..d{n-1}) -> (d{perm[0]}, ..., d{perm[n-1]})``."""
        if sorted(perm) != list(range(len(perm))):
            raise ValueError(f"{list(perm)} is not a permutation")
        return cls.get(len(perm), 0, [dim(p) for p in perm])

    @classmethod
    def empty(cls, num_dims: int = 0, num_symbols: int = 0) -> AffineMap:
        return cls.get(num_dims, num_symbols, [])

    # -- queries ------------------------------------------------------------------------

    @property
    def exprs(self) -> tuple[AffineExpr, ...]:
        return self.results

    def with_exprs(self, num_dims: int, num_symbols: int, exprs: Iterable[AffineExpr]) -> AffineMap:
        return AffineMap.get(num_dims, num_symbols, exprs)

    @property
    def num_results(self) -> int:
        return len(self.results)

    def is_identity(self) -> bool:
        return (
            self.num_dims == len(self.results)
            and self.num_symbols == 0
            and all(r.kind == "dim" and r.value == i for i, r in enumerate(self.results))
        )

    def is_symbol_identity(self) -> bool:
        """``()[s0..] -> (s0, s1, ..)`` with as many results as symbols."""
        return (
            self.num_dims == 0
            and self.num_symbols == len(self.results)
            and all(r.kind == "symbol" and r.value == i for i, r in enumerate(self.results))
        )

    def is_single_constant(self) -> bool:
        return len(self.results) == 1 and self.results[0].kind == "const"

    def is_constant(self) -> bool:
        return all(r.kind == "const" for r in self.results)

    @property
    def single_constant_result(self) -> int:
        if not self.is_single_constant():
            raise ValueError(f"{self} does not have a single constant result")
        return self.results[0].value

    @property
    def constant_results(self) -> list[int]:
        if not self.is_constant():
            raise ValueError(f"{self} has non-constant results")
        return [r.value for r in self.results]

    def is_permutation(self) -> bool:
        """Each dimension appears exactly once, alone, as a result; no symbols."""
        return self.num_dims == len(self.results) and self.is_projected_permutation()

    def is_projected_permutation(self, allow_zero_results: bool = False) -> bool:
        """Results are distinct dimensions (or, if allowed, the constant 0)."""
        if self.num_symbols:
            return False
        seen: set[int] = set()
        for r in self.results:
            if r.kind == "dim":
                if r.value in seen:
                    return False
                seen.add(r.value)
            elif not (allow_zero_results and r.kind == "const" and r.value == 0):
                return False
        return True

    def is_pure_affine(self) -> bool:
        return all(r.is_pure_affine() for r in self.results)

    def is_semi_affine(self) -> bool:
        return not self.is_pure_affine()

    def is_function_of_dim(self, position: int) -> bool:
        return any(r.is_function_of_dim(position) for r in self.results)

    # -- evaluation and algebra ---------------------------------------------------------

    def evaluate(self, dims: Sequence[int] = (), symbols: Sequence[int] = ()) -> list[int]:
        if len(dims) != self.num_dims or len(symbols) != self.num_symbols:
            raise ValueError(
                f"{self} takes {self.num_dims} dims and {self.num_symbols} symbols, "
                f"got {len(dims)} and {len(symbols)}"
            )
        return [r.evaluate(dims, symbols) for r in self.results]

    __call__ = evaluate

    def compose(self, other: AffineMap) -> AffineMap:
        """``self ∘ other``: ``x -> self(other(x))``.

        The result has ``other``'s dimensions and the symbols of ``self`` followed by those
        of ``other`` (MLIR's ``AffineMap::compose``).
        """
        if other.num_results != self.num_dims:
            raise ValueError(
                f"cannot compose {self} ({self.num_dims} dims) with {other} "
                f"({other.num_results} results)"
            )
        shifted = [r.shift_symbols(other.num_symbols, self.num_symbols) for r in other.results]
        return AffineMap.get(
            other.num_dims,
            self.num_symbols + other.num_symbols,
            [
                r.replace(shifted, [symbol(i) for i in range(self.num_symbols)])
                for r in self.results
            ],
        )

    def sub_map(self, positions: Iterable[int]) -> AffineMap:
        """The map keeping only the results at ``positions`` (in that order)."""
        return AffineMap.get(self.num_dims, self.num_symbols, [self.results[p] for p in positions])

    def drop_results(self, positions: Iterable[int]) -> AffineMap:
        drop = set(positions)
        return self.sub_map(i for i in range(self.num_results) if i not in drop)

    def insert_result(self, expr: ExprLike, position: int) -> AffineMap:
        results = list(self.results)
        results.insert(position, _as_expr(expr))
        return AffineMap.get(self.num_dims, self.num_symbols, results)

    def drop_dims(self, positions: Iterable[int]) -> AffineMap:
        """Remove unused dimensions at ``positions``, renumbering the others."""
        drop = set(positions)
        used = self.used_dims() & drop
        if used:
            raise ValueError(f"cannot drop dimensions {sorted(used)} used by {self}")
        mapping: list[AffineExpr] = []
        next_pos = 0
        for i in range(self.num_dims):
            if i in drop:
                mapping.append(constant(0))
            else:
                mapping.append(dim(next_pos))
                next_pos += 1
        return self.replace(mapping, None, next_pos, self.num_symbols)

    def inverse_permutation(self) -> AffineMap:
        """For a permutation ``p``, the permutation ``q`` with ``q ∘ p = id``."""
        if not self.is_permutation():
            raise ValueError(f"{self} is not a permutation")
        inverse = [0] * self.num_dims
        for i, r in enumerate(self.results):
            inverse[r.value] = i
        return AffineMap.permutation(inverse)

    # -- printing -----------------------------------------------------------------------

    def __str__(self) -> str:
        return print_map(self)

    def __reduce__(self) -> tuple:
        return (AffineMap.get, (self.num_dims, self.num_symbols, self.results, self.size))


def _check_ids(expr: AffineExpr, num_dims: int, num_symbols: int, what: str) -> None:
    for e in expr.walk():
        if e.kind == "dim" and e.value >= num_dims:
            raise ValueError(f"d{e.value} is out of range for a {what} with {num_dims} dims")
        if e.kind == "symbol" and e.value >= num_symbols:
            raise ValueError(f"s{e.value} is out of range for a {what} with {num_symbols} symbols")


def print_ids(num_dims: int, num_symbols: int) -> str:
    text = "(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")"
    if num_symbols:
        text += "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]"
    return text


def print_map(m: AffineMap, with_size: bool = False) -> str:
    """``(d0)[s0] -> (d0 + s0)``: the body of ``affine_map<...>`` as mlir-opt prints it."""
    text = (
        print_ids(m.num_dims, m.num_symbols)
        + " -> ("
        + ", ".join(print_expr(r) for r in m.results)
        + ")"
    )
    if with_size and m.size is not None:
        entries = [
            print_expr(e[0]) if len(e) == 1 else "min(" + ", ".join(map(print_expr, e)) + ")"
            for e in m.size
        ]
        text += " size (" + ", ".join(entries) + ")"
    return text
