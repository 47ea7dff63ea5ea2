"""Affine expressions, maps and integer sets to ISL objects and back.

Invariant: the conversion is exact.  ``floordiv``, ``ceildiv`` and ``mod`` by constants
become ISL integer divisions (``floor``, ``ceil``, ``mod``), so ``map_to_isl(m)`` relates
each integer point to exactly ``m``'s value there.  Semi-affine expressions (products with
symbols, division by symbols) are not Presburger; they convert once their symbols are bound
to constants (``symbol_values``), otherwise :class:`NotPresburgerError` says so.  Going back,
an ISL object becomes an affine map or set only when it is one (a single-valued map given by
one quasi-affine piece, a set that is one conjunction); otherwise :class:`NotExpressibleError`
says why.  Dimension and parameter names follow :mod:`poly.space`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import islpy as isl

from affine.errors import PolyError
from affine.math.affine_map import AffineMap
from affine.math.algebra import specialize_symbols
from affine.math.expr import (
    ADD,
    CEILDIV,
    CONST,
    DIM,
    FLOORDIV,
    MOD,
    MUL,
    AffineExpr,
    constant,
    dim,
    fold,
    symbol,
)
from affine.math.integer_set import IntegerSet
from affine.math.simplify import simplify_expr, simplify_map, simplify_set
from poly.context import coalesced, isl_context
from poly.space import (
    dim_name,
    dim_names,
    map_space,
    param_names,
    result_names,
    set_space,
    symbol_name,
    symbol_names,
)


class NotPresburgerError(PolyError, ValueError):
    """A semi-affine expression with unbound symbols has no exact ISL form."""


class NotExpressibleError(PolyError, ValueError):
    """An ISL object that is not a single affine map or integer set."""


# -- to ISL ----------------------------------------------------------------------------------------


def _names(count: int, given: Sequence[str] | None, default) -> list[str]:
    if given is None:
        return default(count)
    if len(given) != count:
        raise ValueError(f"expected {count} names, got {list(given)}")
    return list(given)


def expr_to_pw_aff(
    expr: AffineExpr,
    domain: isl.Space,
    inputs: Sequence[isl.PwAff | None] | None = None,
    num_dims: int = 0,
) -> isl.PwAff:
    """``expr`` as a piecewise quasi-affine function on the set space ``domain`` (its set
    dimensions are ``d0..``, its parameters ``s0..`` in order).

    With ``inputs``, the expression is composed with them instead: ``d_i`` stands for
    ``inputs[i]`` and ``s_j`` for ``inputs[num_dims + j]`` (functions on ``domain``); an
    input that is None must not be used (:class:`NotPresburgerError` otherwise).
    """
    ls = isl.LocalSpace.from_space(domain)
    universe = isl.Set.universe(domain)
    ctx = isl_context()

    def val(v: int) -> isl.Val:
        return isl.Val.int_from_si(ctx, v)

    def input_value(position: int, what: str) -> isl.PwAff:
        assert inputs is not None
        value = inputs[position]
        if value is None:
            raise NotPresburgerError(f"{expr} uses {what}, which is not affine")
        return value

    def leaf(e: AffineExpr) -> isl.PwAff:
        if e.kind == CONST:
            return isl.PwAff.val_on_domain(universe, val(e.value))
        is_dim = e.kind == DIM
        if inputs is not None:
            position = e.value if is_dim else num_dims + e.value
            return input_value(position, dim_name(e.value) if is_dim else symbol_name(e.value))
        kind = isl.dim_type.set if is_dim else isl.dim_type.param
        return isl.PwAff.var_on_domain(ls, kind, e.value)

    def node(e: AffineExpr, value_of: Callable[[AffineExpr], isl.PwAff]) -> isl.PwAff:
        if e.kind == ADD:
            return value_of(e.lhs).add(value_of(e.rhs))
        if e.kind == MUL:
            if e.rhs.kind == CONST:
                return value_of(e.lhs).scale_val(val(e.rhs.value))
            if e.lhs.kind == CONST:
                return value_of(e.rhs).scale_val(val(e.lhs.value))
            raise NotPresburgerError(
                f"{e} multiplies by a symbol: bind the symbols to constants first "
                "(symbol_values=...)"
            )
        if e.rhs.kind != CONST:
            raise NotPresburgerError(
                f"{e} divides by a symbol: bind the symbols to constants first (symbol_values=...)"
            )
        return _division(e.kind, value_of(e.lhs), e.rhs.value, val)

    return fold(expr, leaf, node)


def _division(kind: str, numerator: isl.PwAff, q: int, val) -> isl.PwAff:
    if q == 0:
        raise ZeroDivisionError("division by zero in an affine expression")
    # floor(n / q) = floor(-n / -q): ISL divides by positive values.
    sign_adjusted = numerator if q > 0 else numerator.neg()
    if kind == FLOORDIV:
        return sign_adjusted.scale_down_val(val(abs(q))).floor()
    if kind == CEILDIV:
        return sign_adjusted.scale_down_val(val(abs(q))).ceil()
    assert kind == MOD
    if q > 0:
        return numerator.mod_val(val(q))
    # n mod q (q < 0) has the sign of q: n - q * floor(n / q).
    quotient = numerator.neg().scale_down_val(val(-q)).floor()
    return numerator.sub(quotient.scale_val(val(q)))


def _bind(obj, symbols: Sequence[str] | None, symbol_values: Mapping[int, int] | None):
    """``obj`` with ``symbol_values`` substituted, and the parameter names of the symbols
    that remain."""
    names = _names(obj.num_symbols, symbols, symbol_names)
    if not symbol_values:
        return obj, names
    kept = [n for j, n in enumerate(names) if j not in symbol_values]
    return specialize_symbols(obj, symbol_values), kept


def map_to_multi_pw_aff(
    m: AffineMap,
    symbols: Sequence[str] | None = None,
    in_tuple: str | None = None,
    out_tuple: str | None = None,
    symbol_values: Mapping[int, int] | None = None,
) -> isl.MultiPwAff:
    """``m`` as ``[symbols] -> { in_tuple[d0..] -> out_tuple[r0..] }`` (one piecewise
    quasi-affine function per result).  ``symbol_values`` binds symbols first; their names
    are then dropped from ``symbols``."""
    m, names = _bind(m, symbols, symbol_values)
    domain = set_space(dim_names(m.num_dims), names, in_tuple)
    space = map_space(
        dim_names(m.num_dims), result_names(m.num_results), names, in_tuple, out_tuple
    )
    pieces = isl.PwAffList.alloc(isl_context(), m.num_results)
    for r in m.results:
        pieces = pieces.add(expr_to_pw_aff(r, domain))
    return isl.MultiPwAff.from_pw_aff_list(space, pieces)


def map_to_isl(
    m: AffineMap,
    symbols: Sequence[str] | None = None,
    in_tuple: str | None = None,
    out_tuple: str | None = None,
    symbol_values: Mapping[int, int] | None = None,
) -> isl.Map:
    """``m`` as the relation ``{ x -> m(x) }`` (see :func:`map_to_multi_pw_aff`)."""
    return isl.Map.from_multi_pw_aff(
        map_to_multi_pw_aff(m, symbols, in_tuple, out_tuple, symbol_values)
    )


def set_to_isl(
    s: IntegerSet,
    symbols: Sequence[str] | None = None,
    tuple_name: str | None = None,
    dims: Sequence[str] | None = None,
    symbol_values: Mapping[int, int] | None = None,
) -> isl.Set:
    """The integer points of ``s``: ``[symbols] -> { tuple_name[d0..] : constraints }``."""
    s, names = _bind(s, symbols, symbol_values)
    domain = set_space(_names(s.num_dims, dims, dim_names), names, tuple_name)
    result = isl.Set.universe(domain)
    for c, eq in zip(s.constraints, s.eq_flags):
        pa = expr_to_pw_aff(c, domain)
        result = result.intersect(pa.zero_set() if eq else pa.nonneg_set())
    return result


def box_set(
    shape: Sequence[int | str], symbols: Sequence[str] = (), tuple_name: str | None = None
) -> isl.Set:
    """``{ [d0..] : 0 <= d_i < shape[i] }``; a size may be a parameter name (``?`` sizes)."""
    domain = set_space(dim_names(len(shape)), list(symbols), tuple_name)
    result = isl.Set.universe(domain)
    ls = isl.LocalSpace.from_space(domain)
    for i, size in enumerate(shape):
        var = isl.PwAff.var_on_domain(ls, isl.dim_type.set, i)
        if isinstance(size, str):
            bound = isl.PwAff.var_on_domain(ls, isl.dim_type.param, list(symbols).index(size))
        else:
            bound = isl.PwAff.val_on_domain(result, isl.Val.int_from_si(isl_context(), size))
        result = result.intersect(var.nonneg_set()).intersect(bound.sub(var).pos_set())
    return result


# -- from ISL --------------------------------------------------------------------------------------


class _Reader:
    """Affine expressions from ISL affs over a space whose input/set dimensions become
    ``d0..`` and whose parameters become symbols by name."""

    def __init__(self, space: isl.Space, symbols: Sequence[str] | None) -> None:
        params = param_names(space)
        self.symbols = list(symbols) if symbols is not None else params
        unknown = [p for p in params if p not in self.symbols]
        if unknown:
            raise NotExpressibleError(
                f"parameters {unknown} are not among the symbols {self.symbols}"
            )
        self.param_position = [self.symbols.index(p) for p in params]

    def expr(self, aff: isl.Aff) -> AffineExpr:
        numerator, denominator = self._rational(aff)
        if denominator != 1:
            raise NotExpressibleError(f"{aff} is not integer-valued")
        return numerator

    def _rational(self, aff: isl.Aff) -> tuple[AffineExpr, int]:
        """``aff`` as ``numerator / denominator`` with an integer-coefficient numerator
        (ISL reports each coefficient as a rational, already divided by the denominator)."""
        denominator = _integer(_fraction(aff.get_denominator_val()))
        kind = isl.dim_type.in_  # an aff's variables are the dimensions of its domain

        def coefficient(dim_type: isl.dim_type, k: int) -> int:
            return _integer(_fraction(aff.get_coefficient_val(dim_type, k)) * denominator)

        expr: AffineExpr = constant(_integer(_fraction(aff.get_constant_val()) * denominator))
        for i in range(aff.dim(kind)):
            if c := coefficient(kind, i):
                expr = expr + dim(i) * c
        for k, position in enumerate(self.param_position):
            if c := coefficient(isl.dim_type.param, k):
                expr = expr + symbol(position) * c
        for k in range(aff.dim(isl.dim_type.div)):
            if c := coefficient(isl.dim_type.div, k):
                inner, q = self._rational(aff.get_div(k))
                expr = expr + inner.floordiv(q) * c
        return expr, denominator


def _fraction(v: isl.Val) -> Fraction:
    return Fraction(v.to_str())


def _integer(value: Fraction) -> int:
    if value.denominator != 1:
        raise NotExpressibleError(f"non-integer coefficient {value}")
    return value.numerator


def pw_aff_to_expr(pa: isl.PwAff, symbols: Sequence[str] | None = None) -> AffineExpr:
    """The expression of a one-piece ``pa`` (its value on its domain), simplified."""
    pieces = coalesced(pa).get_pieces()
    if len(pieces) != 1:
        raise NotExpressibleError(f"{pa} has {len(pieces)} pieces, not one affine expression")
    ((_, aff),) = pieces
    space = aff.get_domain_space()
    reader = _Reader(space, symbols)
    return simplify_expr(reader.expr(aff), space.dim(isl.dim_type.set), len(reader.symbols))


def map_from_isl(m: isl.Map | isl.MultiPwAff, symbols: Sequence[str] | None = None) -> AffineMap:
    """The affine map of a single-valued relation given by one quasi-affine piece, as a
    function on the relation's domain (inputs ``d0..``, parameters as ``symbols`` by name)."""
    relation = m if isinstance(m, isl.Map) else isl.Map.from_multi_pw_aff(m)
    if not relation.is_single_valued():
        raise NotExpressibleError(f"{relation} is not a function (some input has several images)")
    outputs = relation.dim(isl.dim_type.out)
    affs = _one_piece(relation)
    if affs is None:
        # ISL may split the whole map where each result alone is one piece: take them apart
        affs = []
        for k in range(outputs):
            alone = relation.project_out(isl.dim_type.out, k + 1, outputs - k - 1)
            result = _one_piece(alone.project_out(isl.dim_type.out, 0, k))
            if result is None:
                raise NotExpressibleError(f"{relation} is piecewise, not one affine map")
            affs += result
    space = relation.get_space().domain()
    reader = _Reader(space, symbols)
    results = [reader.expr(aff) for aff in affs]
    return simplify_map(AffineMap.get(space.dim(isl.dim_type.set), len(reader.symbols), results))


def _one_piece(relation: isl.Map) -> list[isl.Aff] | None:
    """The results of a single-valued ``relation`` as one quasi-affine piece, or None."""
    pma = coalesced(relation.as_pw_multi_aff())
    if pma.n_piece() != 1:
        return None
    pieces: list[isl.MultiAff] = []
    pma.foreach_piece(lambda _domain, multi: pieces.append(multi))
    return [pieces[0].get_at(k) for k in range(pieces[0].dim(isl.dim_type.out))]


def set_from_isl(s: isl.Set | isl.BasicSet, symbols: Sequence[str] | None = None) -> IntegerSet:
    """The integer set of a conjunction of quasi-affine constraints (existentials become
    divisions); a union of several conjunctions is not one integer set."""
    sets = sets_from_isl(s, symbols)
    if len(sets) != 1:
        raise NotExpressibleError(
            f"{s} is a union of {len(sets)} conjunctions, not one integer set "
            "(sets_from_isl gives all of them)"
        )
    return sets[0]


def sets_from_isl(
    s: isl.Set | isl.BasicSet, symbols: Sequence[str] | None = None
) -> list[IntegerSet]:
    """One integer set per conjunction of ``s`` (after ISL computes explicit divisions and
    coalesces); an empty set gives ``[]``."""
    whole = s if isinstance(s, isl.Set) else isl.Set.from_basic_set(s)
    whole = coalesced(whole.compute_divs())
    space = whole.get_space()
    reader = _Reader(space, symbols)
    num_dims = space.dim(isl.dim_type.set)
    out = []
    for bset in whole.get_basic_sets():
        constraints, flags = [], []
        for c in bset.get_constraints():
            constraints.append(reader.expr(c.get_aff()))
            flags.append(c.is_equality())
        out.append(simplify_set(IntegerSet.get(num_dims, len(reader.symbols), constraints, flags)))
    return out


def inverse_on_image(
    m: AffineMap, domain: IntegerSet | None = None, symbols: Sequence[str] | None = None
) -> AffineMap:
    """The map taking each point of ``m``'s image (of ``domain``, or of all integer points)
    back to its preimage: ``inverse_on_image(m)(m(x)) = x``.  It exists when ``m`` is
    one-to-one there and the inverse is one quasi-affine piece, as for tiled layouts
    (``(d0 floordiv 32, d0 mod 32)`` gives ``(r0 * 32 + r1)``); otherwise
    :class:`NotExpressibleError` says why."""
    relation = map_to_isl(m, symbols)
    if domain is not None:
        relation = relation.intersect_domain(set_to_isl(domain, symbols))
    if not relation.is_injective():
        raise NotExpressibleError(f"{m} is not one-to-one, so it has no inverse")
    inverse = map_from_isl(relation.reverse(), symbols or symbol_names(m.num_symbols))
    if inverse.num_symbols != m.num_symbols:
        inverse = AffineMap.get(inverse.num_dims, m.num_symbols, inverse.results)
    return inverse
