"""Hypothesis strategies for affine and semi-affine expressions, maps and integer sets, and
the small boxes of points the property tests evaluate them on."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from hypothesis import strategies as st

from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim, symbol
from affine.math.integer_set import IntegerSet

DIVISION_OPS = ("floordiv", "ceildiv", "mod")


def exprs(
    num_dims: int = 2,
    num_symbols: int = 1,
    semi_affine: bool = False,
    negative_divisors: bool = True,
    max_leaves: int = 10,
) -> st.SearchStrategy[AffineExpr]:
    """Random (semi-)affine expressions over ``d0..`` and ``s0..``; divisors are never 0."""
    leaves = [st.integers(-8, 8).map(constant)]
    if num_dims:
        leaves.append(st.integers(0, num_dims - 1).map(dim))
    if num_symbols:
        leaves.append(st.integers(0, num_symbols - 1).map(symbol))
    divisors = st.integers(-9 if negative_divisors else 1, 9).filter(lambda q: q != 0)

    def extend(children: st.SearchStrategy[AffineExpr]) -> st.SearchStrategy[AffineExpr]:
        options = [
            st.tuples(children, children).map(lambda t: t[0] + t[1]),
            st.tuples(children, children).map(lambda t: t[0] - t[1]),
            st.tuples(children, st.integers(-4, 5)).map(lambda t: t[0] * t[1]),
            st.tuples(children, st.sampled_from(DIVISION_OPS), divisors).map(
                lambda t: t[0].binary(t[1], t[2])
            ),
        ]
        if semi_affine and num_symbols:
            sym = st.integers(0, num_symbols - 1).map(symbol)
            options += [
                st.tuples(children, sym).map(lambda t: t[0] * t[1]),
                st.tuples(children, st.sampled_from(DIVISION_OPS), sym).map(
                    lambda t: t[0].binary(t[1], t[2])
                ),
            ]
        return st.one_of(options)

    return st.recursive(st.one_of(leaves), extend, max_leaves=max_leaves)


def maps(
    num_dims: int = 2, num_symbols: int = 1, num_results: int = 2, semi_affine: bool = False
) -> st.SearchStrategy[AffineMap]:
    return st.lists(
        exprs(num_dims, num_symbols, semi_affine, negative_divisors=False, max_leaves=8),
        min_size=num_results,
        max_size=num_results,
    ).map(lambda rs: AffineMap.get(num_dims, num_symbols, rs))


def integer_sets(
    num_dims: int = 2, num_symbols: int = 1, max_constraints: int = 3
) -> st.SearchStrategy[IntegerSet]:
    constraint = st.tuples(
        exprs(num_dims, num_symbols, negative_divisors=False, max_leaves=6), st.booleans()
    )
    return st.lists(constraint, min_size=1, max_size=max_constraints).map(
        lambda cs: IntegerSet.get(num_dims, num_symbols, [c for c, _ in cs], [e for _, e in cs])
    )


def box(
    num_dims: int, num_symbols: int, dim_range: range = range(-6, 7), sym_range: range = range(1, 5)
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every ``(dims, symbols)`` point of a small box (symbols positive: divisors)."""
    for ds in itertools.product(dim_range, repeat=num_dims):
        for ss in itertools.product(sym_range, repeat=num_symbols):
            yield ds, ss


def value(e: AffineExpr | AffineMap, dims, symbols) -> object:
    """The value at a point, or the exception type where it is undefined."""
    try:
        return e.evaluate(dims, symbols)
    except (ZeroDivisionError, ValueError) as err:
        return type(err)
