"""Algebra on affine maps that needs no solver: composition, inversion, specialisation,
reshaping of dims, symbols and results, and a sufficient test for one-to-one maps.

Every function returns a new (interned) value and leaves its arguments alone; results are
simplified with :func:`affine.math.simplify.simplify_map`.  Questions that need exact integer
reasoning over a domain (one-to-one on an index space, the inverse on an image, bounds) are
answered by :mod:`poly`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from affine.errors import PolyError
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim, symbol
from affine.math.integer_set import IntegerSet
from affine.math.simplify import FlatExpr, FlattenError, flatten, simplify_map, simplify_set

MapOrSet = TypeVar("MapOrSet", AffineMap, IntegerSet)


class NotInvertibleError(PolyError, ValueError):
    """The map has no inverse that is an affine map (the message says why)."""


# -- composition and substitution ------------------------------------------------------------------


def compose(outer: AffineMap, inner: AffineMap) -> AffineMap:
    """``outer ∘ inner`` simplified: ``x -> outer(inner(x))``; symbols of ``outer`` first,
    then those of ``inner`` (MLIR's ``AffineMap::compose``)."""
    return simplify_map(outer.compose(inner))


def substitute(
    m: AffineMap,
    dims: Mapping[int, AffineExpr] | None = None,
    symbols: Mapping[int, AffineExpr] | None = None,
) -> AffineMap:
    """``m`` with ``d_i`` replaced by ``dims[i]`` and ``s_j`` by ``symbols[j]`` (the others
    kept), simplified; the dim and symbol counts do not change."""
    dims, symbols = dims or {}, symbols or {}
    dim_exprs = [dims.get(i, dim(i)) for i in range(m.num_dims)]
    sym_exprs = [symbols.get(j, symbol(j)) for j in range(m.num_symbols)]
    return simplify_map(m.replace(dim_exprs, sym_exprs, m.num_dims, m.num_symbols))


def _bound_or_renumbered(
    count: int, values: Mapping[int, int], make: Callable[[int], AffineExpr]
) -> tuple[list[AffineExpr], int]:
    """Replacements for ``count`` dims (or symbols, by ``make``): the constant ``values[k]``
    where bound, the next free one otherwise; and how many stay free."""
    replacements: list[AffineExpr] = []
    remaining = 0
    for k in range(count):
        if k in values:
            replacements.append(constant(values[k]))
        else:
            replacements.append(make(remaining))
            remaining += 1
    return replacements, remaining


def specialize_symbols(obj: MapOrSet, values: Mapping[int, int]) -> MapOrSet:
    """Bind symbols to constants: ``values[j]`` replaces ``s_j``, the remaining symbols are
    renumbered in order, and the result is simplified (a semi-affine map whose symbols are
    all bound becomes a pure affine one)."""
    sym_exprs, remaining = _bound_or_renumbered(obj.num_symbols, values, symbol)
    unknown = set(values) - set(range(obj.num_symbols))
    if unknown:
        raise ValueError(f"{obj} has no symbols {sorted(unknown)}")
    specialised = obj.replace(None, sym_exprs, obj.num_dims, remaining)
    if isinstance(specialised, AffineMap):
        return simplify_map(specialised)
    return simplify_set(specialised)


# -- dims, symbols and results ----------------------------------------------------------------------


def insert_dims(m: AffineMap, position: int, count: int = 1) -> AffineMap:
    """``count`` new (unused) dims at ``position``; later dims are renumbered."""
    return m.shift_dims(count, position)


def insert_symbols(m: AffineMap, position: int, count: int = 1) -> AffineMap:
    """``count`` new (unused) symbols at ``position``; later symbols are renumbered."""
    return m.shift_symbols(count, position)


def permute_dims(m: AffineMap, order: Sequence[int]) -> AffineMap:
    """The map taking its dims in a new order: input ``i`` of the result is ``d_order[i]``
    of ``m`` (so ``permute_dims(m, p)(x) = m(y)`` with ``y[p[i]] = x[i]``)."""
    if sorted(order) != list(range(m.num_dims)):
        raise ValueError(f"{list(order)} is not a permutation of the {m.num_dims} dims of {m}")
    replacement: list[AffineExpr] = [constant(0)] * m.num_dims
    for new_position, old_position in enumerate(order):
        replacement[old_position] = dim(new_position)
    return m.replace(replacement, None, m.num_dims, m.num_symbols)


def drop_unused_dims(m: AffineMap) -> tuple[AffineMap, list[int]]:
    """``m`` without the dims no result uses, and the old positions of the kept dims
    (MLIR's ``compressUnusedDims``)."""
    used = sorted(m.used_dims())
    return m.drop_dims(set(range(m.num_dims)) - set(used)), used


def drop_unused_symbols(m: AffineMap) -> tuple[AffineMap, list[int]]:
    """``m`` without the symbols no result uses, and the old positions of the kept ones."""
    used = sorted(m.used_symbols())
    renumber = {old: new for new, old in enumerate(used)}
    sym_exprs = [
        symbol(renumber[j]) if j in renumber else constant(0) for j in range(m.num_symbols)
    ]
    return m.replace(None, sym_exprs, m.num_dims, len(used)), used


def fix_dims(m: AffineMap, values: Mapping[int, int]) -> AffineMap:
    """``m`` with dims bound to constants and removed (the others renumbered), simplified."""
    dim_exprs, remaining = _bound_or_renumbered(m.num_dims, values, dim)
    return simplify_map(m.replace(dim_exprs, None, remaining, m.num_symbols))


def concat_results(maps: Iterable[AffineMap]) -> AffineMap:
    """One map with the results of all ``maps`` (same dims and symbols) in order."""
    maps = list(maps)
    if not maps:
        raise ValueError("no maps to concatenate")
    first = maps[0]
    for other in maps[1:]:
        if (other.num_dims, other.num_symbols) != (first.num_dims, first.num_symbols):
            raise ValueError(f"{other} and {first} have different dims or symbols")
    return AffineMap.get(first.num_dims, first.num_symbols, [r for m in maps for r in m.results])


# -- inversion -------------------------------------------------------------------------------------


def inverse(m: AffineMap) -> AffineMap:
    """The affine map ``g`` with ``g(m(x), s) = x`` for every integer ``x``.

    It exists when ``m`` is a permutation, or when its results are ``A x + b(s)`` with a
    square integer matrix ``A`` of determinant ±1 (unimodular) and ``b`` any function of
    the symbols; ``g`` has the same symbols.  Otherwise :class:`NotInvertibleError` says
    why (for maps with divisions, such as tiled layouts, ``poly.inverse_on_image`` finds
    the inverse on the image).
    """
    if m.is_permutation():
        return m.inverse_permutation()
    n = m.num_dims
    if m.num_results != n:
        raise NotInvertibleError(
            f"{m} is not invertible: it has {m.num_results} result(s) for {n} dim(s)"
        )
    matrix, offsets = _linear_part(m, "invert")
    inverse_matrix = _unimodular_inverse(matrix, m)
    shifted = [dim(j) - offsets[j].to_expr() for j in range(n)]
    results = []
    for i in range(n):
        expr: AffineExpr = constant(0)
        for j in range(n):
            if inverse_matrix[i][j]:
                expr = expr + shifted[j] * inverse_matrix[i][j]
        results.append(expr)
    return simplify_map(AffineMap.get(n, m.num_symbols, results))


def _linear_part(m: AffineMap, purpose: str) -> tuple[list[list[int]], list[FlatExpr]]:
    """Rows of dim coefficients and the symbolic rest of each result, or an error saying
    which result is not linear in the dims."""
    matrix: list[list[int]] = []
    offsets: list[FlatExpr] = []
    for r in m.results:
        try:
            flat = flatten(r)
        except FlattenError as err:
            raise NotInvertibleError(f"cannot {purpose} {m}: {r} divides by zero") from err
        row = [0] * m.num_dims
        rest: dict = {}
        for monomial, c in flat.terms:
            atom = monomial[0] if len(monomial) == 1 else None
            if isinstance(atom, AffineExpr) and atom.is_dim:
                row[atom.value] = c
            elif FlatExpr({monomial: 1}).symbolic:
                rest[monomial] = c
            else:
                raise NotInvertibleError(
                    f"cannot {purpose} {m}: result {r} is not linear in the dims (it "
                    "multiplies or divides them); poly.inverse_on_image handles "
                    "divisions"
                )
        matrix.append(row)
        offsets.append(FlatExpr(rest))
    return matrix, offsets


def _unimodular_inverse(matrix: list[list[int]], m: AffineMap) -> list[list[int]]:
    """The integer inverse of a square matrix with determinant ±1 (Gauss-Jordan over Q)."""
    n = len(matrix)
    work = [
        [Fraction(x) for x in row] + [Fraction(int(i == j)) for j in range(n)]
        for i, row in enumerate(matrix)
    ]
    determinant = Fraction(1)
    for col in range(n):
        pivot = next((r for r in range(col, n) if work[r][col] != 0), None)
        if pivot is None:
            raise NotInvertibleError(
                f"{m} is not invertible: its linear part is singular (some inputs are "
                "not determined by the results)"
            )
        if pivot != col:
            work[col], work[pivot] = work[pivot], work[col]
            determinant = -determinant
        determinant *= work[col][col]
        scale = work[col][col]
        work[col] = [x / scale for x in work[col]]
        for r in range(n):
            if r != col and work[r][col] != 0:
                factor = work[r][col]
                work[r] = [a - factor * b for a, b in zip(work[r], work[col])]
    if abs(determinant) != 1:
        raise NotInvertibleError(
            f"{m} is not invertible as an affine map: its linear part has determinant "
            f"{determinant}, so it is one-to-one but does not reach every integer point (the "
            "inverse on its image needs divisions: poly.inverse_on_image)"
        )
    return [[int(x) for x in row[n:]] for row in work]


# -- one-to-one without a solver -------------------------------------------------------------------


def provably_one_to_one(m: AffineMap) -> bool:
    """True when every dim is a rational linear combination of the results plus a function
    of the symbols; then equal results force equal dims, so ``m`` is one-to-one on any
    domain.  False means "not shown" (``poly.one_to_one_on`` decides it exactly on an index
    space, e.g. for the seed's ``#imap_tiled``, one-to-one only for inner indices < 128).

    Results are compared through their flat forms, so ``(d0 floordiv 32, d0 mod 32)`` is
    recognised: ``d0 = 32 * r0 + r1``.
    """
    try:
        flats = [flatten(r) for r in m.results]
    except FlattenError:
        return False
    coordinates: dict = {}
    rows: list[dict] = []
    for flat in flats:
        row = {}
        for monomial, c in flat.terms:
            if not FlatExpr({monomial: 1}).symbolic:
                row[coordinates.setdefault(monomial, len(coordinates))] = Fraction(c)
        rows.append(row)
    basis = _row_echelon(rows)
    for i in range(m.num_dims):
        position = coordinates.get((dim(i),))
        if position is None or not _in_span({position: Fraction(1)}, basis):
            return False
    return True


def _row_echelon(rows: list[dict]) -> list[tuple[int, dict]]:
    """A reduced basis of the rows' span: (pivot column, row with 1 at the pivot)."""
    basis: list[tuple[int, dict]] = []
    for row in rows:
        reduced = _reduce(dict(row), basis)
        if reduced:
            pivot = min(reduced)
            scale = reduced[pivot]
            basis.append((pivot, {k: v / scale for k, v in reduced.items()}))
    return basis


def _reduce(row: dict, basis: list[tuple[int, dict]]) -> dict:
    """``row`` minus its components along the basis.  One pass in order suffices: each basis
    row is zero at the pivots of the rows before it."""
    for pivot, base in basis:
        factor = row.get(pivot)
        if factor:
            for k, v in base.items():
                row[k] = row.get(k, 0) - factor * v
                if row[k] == 0:
                    del row[k]
    return row


def _in_span(vector: dict, basis: list[tuple[int, dict]]) -> bool:
    return not _reduce(dict(vector), basis)
