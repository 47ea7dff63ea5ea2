"""Exact questions about integer sets, answered by ISL: emptiness, bounds of a dimension,
canonical constraints, union, intersection, difference, counting.

Invariant: answers are exact over the integers (not over the rationals, unlike MLIR's
Fourier-Motzkin based checks) and every ISL call runs under the default budget of
:mod:`poly.context`.  Symbols are ISL parameters named by :mod:`poly.space`; a set with
unbound symbols stands for the family of sets over all symbol values.  The questions about
one set (emptiness, range of a dimension, counting, points) also take ISL sets, whose
parameters are bound by name or by position.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar

import islpy as isl

from affine.math.expr import AffineExpr
from affine.math.integer_set import IntegerSet
from poly.context import budget, coalesced, isl_context
from poly.convert import pw_aff_to_expr, set_from_isl, set_to_isl, sets_from_isl
from poly.space import in_toolkit_context, param_names, symbol_names

Piecewise = list[tuple[IntegerSet, AffineExpr]]  # (condition on the symbols, value)


AnySet = IntegerSet | isl.Set | isl.BasicSet
SymbolValues = Mapping[int, int] | Mapping[str, int] | Mapping[int | str, int]
Bindable = TypeVar("Bindable", isl.Set, isl.Map)


def _isl(s: AnySet, symbol_values: SymbolValues | None = None) -> isl.Set:
    if isinstance(s, IntegerSet):
        names = symbol_names(s.num_symbols)
        by_position = {_position(key, names, s): v for key, v in (symbol_values or {}).items()}
        return set_to_isl(s, symbol_values=by_position)
    whole = s if isinstance(s, isl.Set) else isl.Set.from_basic_set(s)
    return bind_params(whole, symbol_values or {})


def bind_params(obj: Bindable, values: SymbolValues) -> Bindable:
    """``obj`` in the toolkit's ISL context with the parameters of ``values`` (keyed by
    name or by position among ``obj``'s parameters) fixed to their values and removed."""
    obj = in_toolkit_context(obj)
    names = param_names(obj)
    positions = []
    for key, value in values.items():
        position = _position(key, names, obj)
        obj = obj.fix_val(isl.dim_type.param, position, isl.Val.int_from_si(isl_context(), value))
        positions.append(position)
    for position in sorted(positions, reverse=True):
        obj = obj.project_out(isl.dim_type.param, position, 1)
    return obj


def _position(key: int | str, names: list[str], owner: object) -> int:
    """The position of the parameter ``key`` (a name among ``names`` or a position)."""
    position = names.index(key) if key in names else key
    if not isinstance(position, int) or not 0 <= position < len(names):
        raise ValueError(f"{owner} has no parameter {key!r} (its parameters: {names})")
    return position


def _same_shape(a: IntegerSet, b: IntegerSet) -> None:
    if (a.num_dims, a.num_symbols) != (b.num_dims, b.num_symbols):
        raise ValueError(f"{a} and {b} have different dims or symbols")


def is_empty(s: AnySet, symbol_values: SymbolValues | None = None) -> bool:
    """True when ``s`` has no integer point for any value of its (unbound) symbols."""
    with budget(what="emptiness check"):
        return _isl(s, symbol_values).is_empty()


def is_subset(a: IntegerSet, b: IntegerSet) -> bool:
    """Every integer point of ``a`` is in ``b`` (for every symbol value)."""
    _same_shape(a, b)
    with budget(what="inclusion check"):
        return _isl(a).is_subset(_isl(b))


def sets_equal(a: IntegerSet, b: IntegerSet) -> bool:
    _same_shape(a, b)
    with budget(what="equality check"):
        return _isl(a).is_equal(_isl(b))


def canonical_set(s: IntegerSet) -> IntegerSet:
    """``s`` with redundant constraints removed and implicit equalities made explicit, in
    ISL's order; MLIR's ``(1 == 0)`` when empty.  Equal sets that ISL can write as one
    conjunction give equal results."""
    with budget(what="canonical constraints"):
        isl_set = coalesced(_isl(s).remove_redundancies())
        if isl_set.is_empty():
            return IntegerSet.empty(s.num_dims, s.num_symbols)
        pieces = sets_from_isl(isl_set)
    if len(pieces) != 1:  # an existential ISL cannot write as divisions: keep the input
        return s
    return _with_shape(pieces[0], s)


def _with_shape(result: IntegerSet, model: IntegerSet) -> IntegerSet:
    """``result`` with ``model``'s symbol count (ISL drops unused parameters)."""
    if result.num_symbols == model.num_symbols:
        return result
    return IntegerSet.get(model.num_dims, model.num_symbols, result.constraints, result.eq_flags)


def intersection(a: IntegerSet, b: IntegerSet) -> IntegerSet:
    """The points in both (a conjunction, in canonical form)."""
    _same_shape(a, b)
    both = IntegerSet.get(
        a.num_dims, a.num_symbols, a.constraints + b.constraints, a.eq_flags + b.eq_flags
    )
    return canonical_set(both)


def union(a: IntegerSet, b: IntegerSet) -> list[IntegerSet]:
    """The points in either, as few conjunctions as ISL's coalescing finds (one when the
    union is convex over the integers)."""
    _same_shape(a, b)
    with budget(what="union"):
        return [_with_shape(p, a) for p in sets_from_isl(_isl(a).union(_isl(b)))]


def difference(a: IntegerSet, b: IntegerSet) -> list[IntegerSet]:
    """The points of ``a`` not in ``b``, as conjunctions."""
    _same_shape(a, b)
    with budget(what="difference"):
        return [_with_shape(p, a) for p in sets_from_isl(_isl(a).subtract(_isl(b)))]


def dim_range(
    s: AnySet, position: int, symbol_values: SymbolValues | None = None
) -> tuple[int | None, int | None]:
    """The least and greatest value of ``d<position>`` over the integer points of ``s`` (and
    over all values of unbound symbols); None where unbounded.  Raises ValueError when
    ``s`` is empty."""
    with budget(what="dimension bounds"):
        isl_set = _isl(s, symbol_values)
        if isl_set.is_empty():
            raise ValueError(f"{s} is empty")
        return _finite(isl_set.dim_min_val(position)), _finite(isl_set.dim_max_val(position))


def _finite(v: isl.Val) -> int | None:
    return None if v.is_infty() or v.is_neginfty() else int(v.to_python())


def dim_bounds(s: IntegerSet, position: int) -> tuple[Piecewise, Piecewise]:
    """Lower and upper bound of ``d<position>`` as functions of the symbols: pieces of
    ``(condition on the symbols, bound)``, the bound an expression over symbols only
    (``d0`` unused).  Where the set is empty there is no piece."""
    with budget(what="parametric dimension bounds"):
        isl_set = _isl(s)
        return (
            piecewise(isl_set.dim_min(position), s.num_symbols),
            piecewise(isl_set.dim_max(position), s.num_symbols),
        )


def piecewise(pa: isl.PwAff, num_symbols: int) -> Piecewise:
    """The pieces of a function of the symbols ``s0..``: (condition, value)."""
    out: Piecewise = []
    names = symbol_names(num_symbols)
    for domain, aff in coalesced(pa).get_pieces():
        condition = set_from_isl(domain, names)
        condition = IntegerSet.get(0, num_symbols, condition.constraints, condition.eq_flags)
        out.append((condition, pw_aff_to_expr(isl.PwAff.from_aff(aff), names)))
    return out


def count_points(s: AnySet, symbol_values: SymbolValues | None = None) -> int:
    """The number of integer points of a bounded set whose symbols are all bound."""
    with budget(what="point count"):
        isl_set = _isl(s, symbol_values)
        _check_enumerable(s, isl_set)
        return int(isl_set.count_val().to_python())


def _check_enumerable(s: AnySet, isl_set: isl.Set) -> None:
    if isl_set.dim(isl.dim_type.param):
        raise ValueError(f"bind the symbols {param_names(isl_set)} of {s} to count its points")
    if not isl_set.is_bounded():
        raise ValueError(f"{s} has infinitely many points")


def points(s: AnySet, symbol_values: SymbolValues | None = None) -> Iterator[tuple[int, ...]]:
    """The integer points of a bounded set whose symbols are all bound, in ISL's order (a
    wrapped relation's points list the input coordinates, then the output ones)."""
    found: list[tuple[int, ...]] = []
    with budget(what="point enumeration"):
        isl_set = _isl(s, symbol_values)
        _check_enumerable(s, isl_set)
        rank = isl_set.dim(isl.dim_type.set)
        isl_set.foreach_point(
            lambda p: found.append(
                tuple(
                    int(p.get_coordinate_val(isl.dim_type.set, i).to_python()) for i in range(rank)
                )
            )
        )
    return iter(found)
