"""Normal forms of affine and semi-affine expressions, and their simplification.

Invariant: :func:`flatten` maps an expression to a :class:`FlatExpr`, an integer combination
of monomials over dimensions, symbols and :class:`Local` division terms, and two expressions
with equal flat forms compute the same function.  :func:`simplify_expr` rebuilds a flat form
through the ordinary operators, so the result prints exactly as ``mlir-opt`` prints it.

The flattening follows MLIR's ``SimpleAffineExprFlattener`` (mlir/lib/IR/AffineExpr.cpp):
``a mod q`` becomes ``a - q * floor(a / q)`` and ``a ceildiv q`` becomes ``-floor(-a / q)``,
so every division is one kind of term, ``floor(numerator / divisor)``, put in a normal form
when it is created (see :class:`_Context`): common factors cancelled, multiples of the divisor
taken out, the leading coefficient made positive, a division of a division merged, and a
division whose numerator lies within one multiple of the divisor replaced by its constant
value, using the known ranges of dimensions and symbols and the range ``[0, q)`` of every
``mod``.  This subsumes MLIR's ``simplifyAffineExpr`` and adds the range-aware rules, e.g.
``(4*d0 + d1) mod 4`` is ``d1`` when ``0 <= d1 < 4``.  Semi-affine terms (products with
symbols, division by a symbolic expression) are monomials and locals of the same form.

Turning a flat form back into an expression picks, for each division term, the spelling
(``floordiv``, ``ceildiv`` or ``mod``, numerator shifted by multiples of the divisor,
nested or merged) of smallest estimated size.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Union

from affine.errors import PolyError
from affine.math.affine_map import AffineMap
from affine.math.expr import (
    CEILDIV,
    CONST,
    DIM,
    FLOORDIV,
    MOD,
    AffineExpr,
    constant,
    dim,
    fold_arithmetic,
    symbol,
)
from affine.math.integer_set import IntegerSet

Atom = Union[AffineExpr, "Local"]  # a dimension or symbol leaf, or a division term
Monomial = tuple[Atom, ...]  # atoms in key order (repeats allowed); () is the constant 1
Bound = tuple[int | None, int | None]  # inclusive (lower, upper); None is unbounded
Ranges = Mapping[AffineExpr, Bound]  # known ranges of dims and symbols (keys dim(i)/symbol(j))

_INF = math.inf


class FlattenError(PolyError, ValueError):
    """An expression that has no flat form (a division by the constant zero)."""


def _atom_key(atom: Atom) -> tuple:
    if isinstance(atom, Local):
        return atom.key
    return (0 if atom.kind == DIM else 1, atom.value)


_MONOMIAL_KEYS: dict[Monomial, tuple] = {}


def _monomial_key(monomial: Monomial) -> tuple:
    key = _MONOMIAL_KEYS.get(monomial)
    if key is None:
        if len(_MONOMIAL_KEYS) > 65536:
            _MONOMIAL_KEYS.clear()
        key = _MONOMIAL_KEYS[monomial] = tuple(_atom_key(a) for a in monomial)
    return key


def _atom_is_symbolic(atom: Atom) -> bool:
    return atom.symbolic if isinstance(atom, Local) else atom.kind != DIM


class _Keyed:
    """Equal to a value of its class with an equal ``key``; hashed by the key, once."""

    __slots__ = ("_hash", "key")

    key: tuple

    def _set_key(self, key: tuple) -> None:
        self.key = key
        self._hash = hash(key)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key == other.key

    def __hash__(self) -> int:
        return self._hash


class FlatExpr(_Keyed):
    """An immutable integer combination of monomials.

    Invariant: ``terms`` is sorted by monomial key, has no zero coefficient, and the constant
    monomial ``()`` (if present) comes first.
    """

    __slots__ = ("_coefficients", "terms")

    terms: tuple[tuple[Monomial, int], ...]

    def __init__(self, coefficients: Mapping[Monomial, int]) -> None:
        keyed = sorted((_monomial_key(m), m, c) for m, c in coefficients.items() if c != 0)
        self.terms = tuple((m, c) for _, m, c in keyed)
        self._coefficients = dict(self.terms)
        self._set_key(tuple((k, c) for k, _, c in keyed))

    # -- construction -------------------------------------------------------------------

    @staticmethod
    def constant(value: int) -> FlatExpr:
        return FlatExpr({(): value})

    @staticmethod
    def atom(atom: Atom) -> FlatExpr:
        return FlatExpr({(atom,): 1})

    def __add__(self, other: FlatExpr | int) -> FlatExpr:
        other = _as_flat(other)
        total = dict(self._coefficients)
        for m, c in other.terms:
            total[m] = total.get(m, 0) + c
        return FlatExpr(total)

    __radd__ = __add__

    def __neg__(self) -> FlatExpr:
        return self.scale(-1)

    def __sub__(self, other: FlatExpr | int) -> FlatExpr:
        return self + (-_as_flat(other))

    def __rsub__(self, other: int) -> FlatExpr:
        return _as_flat(other) - self

    def scale(self, factor: int) -> FlatExpr:
        return FlatExpr({m: c * factor for m, c in self.terms})

    def __mul__(self, other: FlatExpr | int) -> FlatExpr:
        if isinstance(other, int):
            return self.scale(other)
        product: dict[Monomial, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = _multiply_monomials(m1, m2)
                product[m] = product.get(m, 0) + c1 * c2
        return FlatExpr(product)

    __rmul__ = __mul__

    # -- queries ------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"FlatExpr({_present(self)})"

    def coefficient(self, monomial: Monomial) -> int:
        return self._coefficients.get(monomial, 0)

    @property
    def constant_term(self) -> int:
        return self._coefficients.get((), 0)

    @property
    def is_constant(self) -> bool:
        return all(m == () for m, _ in self.terms)

    @property
    def is_zero(self) -> bool:
        return not self.terms

    @property
    def symbolic(self) -> bool:
        """No dimension occurs (also not inside a division term)."""
        return all(_atom_is_symbolic(a) for m, _ in self.terms for a in m)

    @property
    def is_pure_affine(self) -> bool:
        """Every monomial has degree at most one and every division has a constant divisor."""
        return all(
            len(m) <= 1 and all(not isinstance(a, Local) or a.is_pure_affine for a in m)
            for m, _ in self.terms
        )

    def variable_part(self) -> FlatExpr:
        return FlatExpr({m: c for m, c in self.terms if m != ()})

    def content(self) -> int:
        """The gcd of the non-constant coefficients (0 for a constant)."""
        return math.gcd(*(c for m, c in self.terms if m != ()))

    def locals(self) -> list[Local]:
        """The division terms occurring directly in a monomial, in key order, without repeats."""
        seen: dict[Local, None] = {}
        for m, _ in self.terms:
            for a in m:
                if isinstance(a, Local):
                    seen.setdefault(a, None)
        return list(seen)

    def evaluate(self, dims: Sequence[int] = (), symbols: Sequence[int] = ()) -> int:
        """The value at a point; raises like :meth:`AffineExpr.evaluate` on bad divisors."""
        total = 0
        for m, c in self.terms:
            value = c
            for a in m:
                value *= _evaluate_atom(a, dims, symbols)
            total += value
        return total

    def to_expr(self) -> AffineExpr:
        """The shortest spelling found of this flat form, built through the operators."""
        return _present(self)


class Local(_Keyed):
    """``floor(numerator / divisor)`` in canonical form.

    Invariant: the divisor is a positive constant (at least 2) or a non-constant symbolic
    flat expression with positive leading coefficient; for a constant divisor the numerator's
    coefficients and constant lie in ``[0, divisor)`` and are not all multiples of a common
    factor of the divisor.  Locals are compared by value.
    """

    __slots__ = ("divisor", "numerator", "symbolic")

    numerator: FlatExpr
    divisor: FlatExpr
    symbolic: bool

    def __init__(self, numerator: FlatExpr, divisor: FlatExpr) -> None:
        self.numerator = numerator
        self.divisor = divisor
        self._set_key((2, numerator.key, divisor.key))
        self.symbolic = numerator.symbolic

    def __repr__(self) -> str:
        return f"Local(floor(({_present(self.numerator)}) / {_present(self.divisor)}))"

    @property
    def constant_divisor(self) -> int | None:
        return self.divisor.constant_term if self.divisor.is_constant else None

    @property
    def is_pure_affine(self) -> bool:
        return self.divisor.is_constant and self.numerator.is_pure_affine


def _as_flat(value: FlatExpr | int) -> FlatExpr:
    return value if isinstance(value, FlatExpr) else FlatExpr.constant(value)


def _multiply_monomials(m1: Monomial, m2: Monomial) -> Monomial:
    return tuple(sorted(m1 + m2, key=_atom_key))


def _evaluate_atom(atom: Atom, dims: Sequence[int], symbols: Sequence[int]) -> int:
    if isinstance(atom, Local):
        numerator = atom.numerator.evaluate(dims, symbols)
        divisor = atom.divisor.evaluate(dims, symbols)
        if divisor == 0:
            raise ZeroDivisionError(f"division by zero in {atom!r}")
        if divisor < 0:
            raise ValueError(f"division by the negative value {divisor} in {atom!r}")
        return numerator // divisor
    return dims[atom.value] if atom.kind == DIM else symbols[atom.value]


# -- flattening ------------------------------------------------------------------------------


def flatten(expr: AffineExpr, ranges: Ranges | None = None, reduced: bool = False) -> FlatExpr:
    """The flat form of ``expr``; ``ranges`` bound dims and symbols (inclusive).

    ``reduced`` selects the reduced normal form (see :class:`_Context`).  Raises
    :class:`FlattenError` for a division by the constant zero.
    """
    context = _Context(ranges, reduced)

    def leaf(e: AffineExpr) -> FlatExpr:
        return FlatExpr.constant(e.value) if e.kind == CONST else FlatExpr.atom(e)

    return fold_arithmetic(
        expr,
        leaf,
        floordiv=context.floor_div,
        ceildiv=lambda lhs, rhs: -context.floor_div(-lhs, rhs),
        mod=lambda lhs, rhs: lhs - rhs * context.floor_div(lhs, rhs),
    )


def flat_result(m: AffineMap) -> FlatExpr | None:
    """The flat form of a one-result map's result; None for another number of results or a
    division by the constant zero."""
    if m.num_results != 1:
        return None
    try:
        return flatten(m.results[0])
    except FlattenError:
        return None


class _Context:
    """Division in normal form under known ranges.

    Two normal forms are built.  The *near* form keeps numerators as written up to what is
    certainly simpler: the gcd is cancelled, exact multiples of the divisor and whole
    multiples in the constant are taken out, the leading coefficient is made positive
    (``floor(-a/q) = -floor((a + q - 1)/q)``, which also identifies ``ceildiv`` with its
    ``floordiv`` equivalent) and a division of a lone division is merged.  The *reduced*
    form (``reduced=True``) also takes out every multiple, leaving all numerator
    coefficients in ``[0, q)``, and merges every nested division with a unit coefficient;
    it identifies more equal expressions at the price of numerators that look less like
    the input.
    """

    __slots__ = ("_bounds", "ranges", "reduced")

    def __init__(self, ranges: Ranges | None, reduced: bool = False) -> None:
        self.ranges = dict(ranges) if ranges else {}
        self.reduced = reduced
        self._bounds: dict[Atom, tuple[float, float]] = {}

    def floor_div(self, numerator: FlatExpr, divisor: FlatExpr) -> FlatExpr:
        """``floor(numerator / divisor)`` in normal form."""
        if divisor.is_constant:
            q = divisor.constant_term
            if q == 0:
                raise FlattenError("division by zero")
            if q < 0:
                numerator, q = -numerator, -q
            return self._floor_by_constant(numerator, q)
        return self._floor_by_symbolic(numerator, divisor)

    def _split(self, a: int, c: int, monomial: Monomial) -> tuple[int, int]:
        """``(k, r)`` with ``a = k*c + r``: all multiples out in the reduced form and for the
        constant, exact multiples only otherwise."""
        if self.reduced or monomial == ():
            return divmod(a, c)
        return (a // c, 0) if a % c == 0 else (0, a)

    def _floor_by_constant(self, n: FlatExpr, q: int) -> FlatExpr:
        if q == 1:
            return n
        merged = _merge_nested_division(n, q, self.reduced)
        if merged is not None:
            return self._floor_by_constant(*merged)
        g = math.gcd(n.content(), q)
        if g > 1:
            c = n.constant_term
            n = FlatExpr({m: a // g for m, a in n.terms if m != ()}) + c // g
            q //= g
            if q == 1:
                return n
        whole = self._constant_quotient(n, FlatExpr.constant(q))
        if whole is not None:
            return FlatExpr.constant(whole)
        quotient: dict[Monomial, int] = {}
        remainder: dict[Monomial, int] = {}
        for m, a in n.terms:
            quotient[m], remainder[m] = self._split(a, q, m)
        taken, rest = FlatExpr(quotient), FlatExpr(remainder)
        if rest.is_constant:  # 0 <= constant < q
            return taken
        if _merge_nested_division(rest, q, self.reduced) is not None:
            return taken + self._floor_by_constant(rest, q)
        whole = self._constant_quotient(rest, FlatExpr.constant(q))
        if whole is not None:
            return taken + whole
        if _leading_coefficient(rest) < 0:
            # floor(r/q) = -floor((-r + q - 1)/q); the new constant is again in [0, q).
            return taken - FlatExpr.atom(Local(-rest + (q - 1), FlatExpr.constant(q)))
        return taken + FlatExpr.atom(Local(rest, FlatExpr.constant(q)))

    def _floor_by_symbolic(self, n: FlatExpr, d: FlatExpr) -> FlatExpr:
        # Make the divisor's leading coefficient positive: floor(n / -d) = floor(-n / d).
        if _leading_coefficient(d) < 0:
            n, d = -n, -d
        g = math.gcd(d.content(), d.constant_term)
        if g > 1:
            # floor(n / (g*d')) = floor(floor(n / g) / d') for d' > 0
            reduced = FlatExpr({m: c // g for m, c in d.terms})
            return self._floor_by_symbolic(self._floor_by_constant(n, g), reduced)
        # floor(n / (c*M)) with a single-monomial divisor: take out the multiples of c*M.
        if len(d.terms) == 1:
            ((monomial, c),) = d.terms
            quotient: dict[Monomial, int] = {}
            remainder: dict[Monomial, int] = {}
            for m, a in n.terms:
                cofactor = _divide_monomial(m, monomial)
                if cofactor is None:
                    remainder[m] = remainder.get(m, 0) + a
                else:
                    k, r = self._split(a, c, cofactor)
                    quotient[cofactor] = quotient.get(cofactor, 0) + k
                    remainder[m] = remainder.get(m, 0) + r
            rest = FlatExpr(remainder)
            if rest.is_zero:
                return FlatExpr(quotient)
            divided = [(_divide_monomial(m, monomial), a) for m, a in rest.terms]
            if all(q is not None for q, _ in divided):
                # floor(M*a / (c*M)) = floor(a / c) since M > 0.
                reduced = FlatExpr({q: a for q, a in divided if q is not None})
                return FlatExpr(quotient) + self._floor_by_constant(reduced, c)
            taken = FlatExpr(quotient)
            if not taken.is_zero:
                return taken + self._floor_by_symbolic(rest, d)
        if n.is_zero:
            return n
        # Leading numerator coefficient positive: floor(n/d) = -1 - floor((-n - 1) / d).
        if _leading_coefficient(n) < 0:
            return -1 - self._floor_by_symbolic(-n - 1, d)
        whole = self._constant_quotient(n, d)
        if whole is not None:
            return FlatExpr.constant(whole)
        return FlatExpr.atom(Local(n, d))

    def _constant_quotient(self, n: FlatExpr, d: FlatExpr) -> int | None:
        """``floor(n / d)`` when the known ranges make it a constant, else None."""
        n_lo, n_hi = self.bounds(n)
        d_lo, d_hi = self.bounds(d)
        if d_lo < 1 or math.isinf(n_lo) or math.isinf(n_hi):
            return None
        corners = [_floor_quotient(a, b) for a in (n_lo, n_hi) for b in (d_lo, d_hi)]
        if math.isinf(d_hi):
            if n_lo >= 0:
                corners = [0, _floor_quotient(n_hi, d_lo)]
            else:
                return None
        low, high = min(corners), max(corners)
        return int(low) if low == high else None

    def bounds(self, flat: FlatExpr) -> tuple[float, float]:
        """Inclusive bounds of ``flat`` (``±inf`` when unbounded); sound, not always tight."""
        plain = self._plain_bounds(flat)
        residue, extracted = _extract_exact_mods(flat)
        if not extracted:
            return plain
        lo, hi = self._plain_bounds(residue)
        for local, factor in extracted:
            span = factor * (local.divisor.constant_term - 1)  # factor * (n mod q)
            lo, hi = lo + min(0, span), hi + max(0, span)
        return max(plain[0], lo), min(plain[1], hi)

    def _plain_bounds(self, flat: FlatExpr) -> tuple[float, float]:
        lo = hi = 0.0
        for m, c in flat.terms:
            m_lo, m_hi = 1.0, 1.0
            for a in m:
                m_lo, m_hi = _interval_product((m_lo, m_hi), self._atom_bounds(a))
            t_lo, t_hi = _interval_product((m_lo, m_hi), (c, c))
            lo, hi = lo + t_lo, hi + t_hi
        return lo, hi

    def _atom_bounds(self, atom: Atom) -> tuple[float, float]:
        hit = self._bounds.get(atom)
        if hit is not None:
            return hit
        if isinstance(atom, Local):
            n_lo, n_hi = self.bounds(atom.numerator)
            d_lo, d_hi = self.bounds(atom.divisor)
            d_lo = max(d_lo, 1)
            corners = [_floor_quotient(a, b) for a in (n_lo, n_hi) for b in (d_lo, d_hi)]
            out = (min(corners), max(corners))
        else:
            low, high = self.ranges.get(atom, (None, None))
            out = (-_INF if low is None else low, _INF if high is None else high)
        self._bounds[atom] = out
        return out


def _floor_quotient(a: float, b: float) -> float:
    """floor(a / b) for b >= 1, with infinities."""
    if math.isinf(b):
        return 0 if a >= 0 else -1 if not math.isinf(a) else a
    if math.isinf(a):
        return a
    return a // b


def _interval_product(x: tuple[float, float], y: tuple[float, float]) -> tuple[float, float]:
    products = [_mul_bound(a, b) for a in x for b in y]
    return min(products), max(products)


def _mul_bound(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b


def _merge_nested_division(n: FlatExpr, q: int, any_rest: bool) -> tuple[FlatExpr, int] | None:
    """``floor((±floor(a/p) + w) / q)`` as ``floor((±a + p*w) / (p*q))``, or None.

    Unless ``any_rest``, only a numerator that is one division plus a constant is merged:
    merging with other terms hides the nested structure that reads best.
    """
    variable = n.variable_part()
    for monomial, sign in variable.terms:
        local = monomial[0] if len(monomial) == 1 else None
        if not isinstance(local, Local) or local.constant_divisor is None or sign not in (1, -1):
            continue
        if not any_rest and len(variable.terms) != 1:
            return None
        p = local.constant_divisor
        if sign == 1:
            inner = local.numerator
        else:  # -floor(a/p) = floor((-a + p - 1) / p)
            inner = -local.numerator + (p - 1)
        return inner + (n - FlatExpr.atom(local).scale(sign)).scale(p), p * q
    return None


def _divide_monomial(m: Monomial, divisor: Monomial) -> Monomial | None:
    """``m / divisor`` when ``divisor``'s atoms are a sub-multiset of ``m``'s, else None."""
    remaining = list(m)
    for a in divisor:
        if a not in remaining:
            return None
        remaining.remove(a)
    return tuple(remaining)


def _leading_coefficient(flat: FlatExpr) -> int:
    """The coefficient of the first non-constant monomial (the constant if there is none)."""
    for m, c in flat.terms:
        if m != ():
            return c
    return flat.constant_term


# -- from flat form back to an expression ---------------------------------------------------------
#
# A flat form has many spellings: ``k * floor(n/d)`` equals ``k * floor((n + s*d)/d) - k*s`` for
# any integer-valued ``s``; ``floor(a/d)`` equals ``ceil((a - d + 1)/d)`` and
# ``-floor((-a + d - 1)/d)``; ``-q * floor(n/q)`` is ``n mod q - n``; and a merged division
# ``floor(n/(p*q))`` can be written nested again.  The divisions are spelt one at a time,
# greedily: next is the one whose best spelling leaves the cheapest whole, where the cost
# estimates the node count of the result by adding up its summands.


def expr_size(expr: AffineExpr) -> int:
    """The number of nodes of the expression tree (the measure the spelling minimises)."""
    size = _SIZES.get(expr)
    if size is None:
        size = 1 + (expr_size(expr.lhs) + expr_size(expr.rhs) if expr.is_binary else 0)
        _SIZES[expr] = size
    return size


_SIZES: dict[AffineExpr, int] = {}


def _term_cost(m: Monomial, c: int) -> int:
    """Estimated nodes of the summand ``c * m`` (0 when ``c`` is 0)."""
    if c == 0:
        return 0
    if m == ():
        return 1
    return sum(_atom_cost(a) for a in m) + len(m) - 1 + (0 if c == 1 else 2)


@lru_cache(maxsize=16384)
def _atom_cost(atom: Atom) -> int:
    if not isinstance(atom, Local):
        return 1
    return 1 + _cost(atom.numerator) + _cost(atom.divisor)


@lru_cache(maxsize=16384)
def _cost(flat: FlatExpr) -> int:
    """Estimated nodes of the spelling of ``flat``: its summands and the additions, with
    ``m * n - m*q * floor(n/q)`` counted as the one summand ``m * (n mod q)``."""
    residual, mods = _extract_exact_mods(flat)
    costs = [_term_cost(m, c) for m, c in residual.terms]
    costs += [1 + _cost(local.numerator) + 1 + (0 if factor == 1 else 2) for local, factor in mods]
    return sum(costs) + max(len(costs) - 1, 0)


def _extract_exact_mods(flat: FlatExpr) -> tuple[FlatExpr, list[tuple[Local, int]]]:
    """``flat`` minus every ``m * (n mod q)`` whose terms all occur in it, and those parts."""
    mods: list[tuple[Local, int]] = []
    for local in flat.locals():
        q = local.constant_divisor
        k = flat.coefficient((local,))
        if q is None or k == 0 or k % q:
            continue
        factor = -k // q
        rest = flat - FlatExpr.atom(local).scale(k) - local.numerator.scale(factor)
        if len(rest.terms) <= len(flat.terms) - len(local.numerator.terms) - 1:
            mods.append((local, factor))
            flat = rest
    return flat, mods


@lru_cache(maxsize=16384)
def _present(flat: FlatExpr) -> AffineExpr:
    residual = flat
    terms: list[tuple[tuple, AffineExpr]] = []
    pending = sorted(flat.locals(), key=_spelling_order)
    while pending:
        # The division whose best spelling leaves the cheapest whole goes next.
        spelt = [(sp, local) for local in pending if (sp := _spell_local(local, residual))]
        if not spelt:
            break
        spelling, local = min(spelt, key=lambda item: item[0].cost)
        terms.append((local.key, spelling.build()))
        residual = spelling.residual
        pending = [p for p in pending if p is not local]
    return _assemble(residual, [term for _, term in sorted(terms, key=lambda t: t[0])])


def _spelling_order(local: Local) -> tuple:
    """Outer divisions first (those whose numerators hold others, then larger divisors), so
    that the divisions they contain are still there to be matched."""
    q = local.constant_divisor
    return (q is None, -_depth(local), -(q or 0), local.key)


@lru_cache(maxsize=16384)
def _depth(local: Local) -> int:
    inner = local.numerator.locals() + local.divisor.locals()
    return 1 + max((_depth(x) for x in inner), default=0)


class _Spelling:
    """``factor * op(numerator, divisor)``: one way to write a division term."""

    __slots__ = ("cost", "divisor", "factor", "numerator", "op", "residual")

    def __init__(
        self, op: str, numerator: FlatExpr, divisor: FlatExpr, factor: int, residual: FlatExpr
    ) -> None:
        self.op = op  # FLOORDIV, CEILDIV or MOD
        self.numerator = numerator
        self.divisor = divisor
        self.factor = factor
        self.residual = residual  # what remains of the expression besides this term
        term = 1 + _cost(numerator) + _cost(divisor) + (0 if factor == 1 else 2)
        addition = 1 if residual.terms else 0
        self.cost = (term + _cost(residual) + addition, len(residual.terms))

    def build(self) -> AffineExpr:
        return _present(self.numerator).binary(self.op, _present(self.divisor)) * self.factor


def _spell_local(local: Local, residual: FlatExpr) -> _Spelling | None:
    """The best spelling of ``local``'s part of ``residual``, or None when the part stays a
    plain ``floordiv`` atom (a cofactor that is neither constant nor a multiple of the
    divisor)."""
    cofactor = _cofactor(residual, local)
    if cofactor is None or cofactor.is_zero:
        return None
    rest = residual - FlatExpr.atom(local) * cofactor
    if cofactor.is_constant:
        return _best_linear_spelling(local, cofactor.constant_term, rest)
    factor = _negative_multiple(cofactor, local.divisor)
    if factor is None:
        return None
    # local * (-m*d) = m * (n mod d) - m * n
    return _Spelling(
        MOD, local.numerator, local.divisor, factor, rest - local.numerator.scale(factor)
    )


def _cofactor(flat: FlatExpr, local: Local) -> FlatExpr | None:
    """``P`` with ``flat = R + local * P`` (None if ``local`` occurs squared)."""
    cofactor: dict[Monomial, int] = {}
    for m, c in flat.terms:
        count = m.count(local)
        if count > 1:
            return None
        if count == 1:
            rest = list(m)
            rest.remove(local)
            cofactor[tuple(rest)] = c
    return FlatExpr(cofactor)


def _negative_multiple(cofactor: FlatExpr, divisor: FlatExpr) -> int | None:
    """``m`` with ``cofactor == -m * divisor``, or None."""
    monomial, lead = divisor.terms[-1]
    c = cofactor.coefficient(monomial)
    if c % lead:
        return None
    m = -c // lead
    return m if m != 0 and cofactor == divisor.scale(-m) else None


def _best_linear_spelling(local: Local, k: int, rest: FlatExpr) -> _Spelling:
    """The spelling of ``k * local`` (beside ``rest``) of smallest estimated cost."""
    candidates: list[_Spelling] = []
    for form_n, d in _division_forms(local, rest):
        q = d.constant_term if d.is_constant else None
        # k * floor(n/d) = -k * floor((-n + d - 1)/d)
        for n, factor in ((form_n, k), (-form_n + d - 1, -k)):
            for op in (FLOORDIV, CEILDIV):
                shift: dict[Monomial, int] = {}
                for monomial, values in _shift_candidates(n, rest, factor):
                    shift[monomial] = min(
                        values,
                        key=lambda v: (
                            _div_spelling(op, n, d, factor, rest, {**shift, monomial: v}).cost
                        ),
                    )
                candidates.append(_div_spelling(op, n, d, factor, rest, shift))
                absorbing = {
                    m: f // factor for m, f in rest.terms if f % factor == 0 and _has_local(m)
                }
                if absorbing:
                    candidates.append(_div_spelling(op, n, d, factor, rest, {**shift, **absorbing}))
            if q is not None and factor % q == 0:
                # -m*q * floor(n/q) = m * (n mod q) - m * n
                m = -factor // q
                candidates.append(
                    _Spelling(MOD, _best_mod_numerator(n, q), d, m, rest - n.scale(m))
                )
    # Ties go to a positive factor, then to the earlier candidate (floordiv before ceildiv).
    return min(candidates, key=lambda sp: (sp.cost, sp.factor < 0))


def _has_local(m: Monomial) -> bool:
    return any(isinstance(a, Local) for a in m)


def _division_forms(local: Local, rest: FlatExpr) -> list[tuple[FlatExpr, FlatExpr]]:
    """``(numerator, divisor)`` pairs equal to ``local`` as ``floor(numerator / divisor)``.

    Besides its own, a merged division ``floor(n / (p*q))`` is tried nested again as
    ``floor((±floor(a/p) + w) / q)`` (``n = ±a + p*w`` up to a constant) for each division
    ``floor(a/p)`` that occurs in ``rest``.
    """
    forms = [(local.numerator, local.divisor)]
    q = local.constant_divisor
    if q is None:
        return forms
    n = local.numerator
    for inner in rest.locals():
        p = inner.constant_divisor
        if p is None or q % p or p == q:
            continue
        atom = FlatExpr.atom(inner)
        for sign, base in ((1, n - inner.numerator), (-1, n + inner.numerator - (p - 1))):
            if all(a % p == 0 for _, a in base.terms):
                outer = FlatExpr({m: a // p for m, a in base.terms})
                forms.append((atom.scale(sign) + outer, FlatExpr.constant(q // p)))
    return forms


def _shift_candidates(
    n: FlatExpr, rest: FlatExpr, k: int
) -> list[tuple[Monomial, tuple[int, ...]]]:
    """Shifts to try per monomial (the constant last): move a numerator coefficient below
    zero, or cancel the outer term of a numerator monomial."""
    candidates: dict[Monomial, list[int]] = {}
    for m, _ in n.terms:
        if m != ():
            candidates[m] = [0, -1]
            f = rest.coefficient(m)
            if f and f % k == 0:
                candidates[m].append(f // k)
    constant_shifts = [0, -1, 1]
    if rest.constant_term % k == 0:
        constant_shifts.append(rest.constant_term // k)
    ordered = sorted(candidates.items(), key=lambda item: _monomial_key(item[0]))
    ordered.append(((), constant_shifts))
    return [(m, tuple(dict.fromkeys(values))) for m, values in ordered]


def _div_spelling(
    op: str, n: FlatExpr, d: FlatExpr, k: int, rest: FlatExpr, shift: Mapping[Monomial, int]
) -> _Spelling:
    """``k * floor(n/d)`` as a ``floordiv`` or ``ceildiv``, with ``n`` shifted by
    ``shift * d`` (``floor((n + s*d)/d) = floor(n/d) + s``)."""
    offset = FlatExpr(shift)
    shifted = n + offset * d
    residual = rest - offset.scale(k)
    if op == FLOORDIV:
        return _Spelling(FLOORDIV, shifted, d, k, residual)
    # floor(a/d) = ceil((a - d + 1)/d)
    return _Spelling(CEILDIV, shifted - d + 1, d, k, residual)


def _best_mod_numerator(n: FlatExpr, q: int) -> FlatExpr:
    """``n`` with coefficients moved by multiples of ``q`` where that shortens it
    (``n mod q`` is the same)."""
    best = n
    for m, _ in n.terms:
        options = [best + FlatExpr({m: t * q}) for t in (0, -1, -2, 1)]
        best = min(options, key=lambda f: (_cost(f), f is not options[0]))
    return best


def _assemble(residual: FlatExpr, local_terms: Sequence[AffineExpr]) -> AffineExpr:
    """Sum in MLIR's order: dimension and symbol terms, division terms, then the constant."""
    expr: AffineExpr | None = None
    for m, c in residual.terms:
        if m == ():
            continue
        term = _monomial_expr(m) * c
        expr = term if expr is None else expr + term
    for term in local_terms:
        expr = term if expr is None else expr + term
    c = residual.constant_term
    if expr is None:
        return constant(c)
    return expr + c if c else expr


def _monomial_expr(m: Monomial) -> AffineExpr:
    atoms = sorted(m, key=lambda a: (_atom_is_symbolic(a), _atom_key(a)))
    expr = _atom_expr(atoms[0])
    for a in atoms[1:]:
        expr = expr * _atom_expr(a)
    return expr


def _atom_expr(atom: Atom) -> AffineExpr:
    """A division inside a product: ``floordiv`` or one of its unshifted equivalents."""
    if not isinstance(atom, Local):
        return atom
    n, d = atom.numerator, atom.divisor
    spellings = [
        _div_spelling(op, numerator, d, factor, _ZERO, {})
        for numerator, factor in ((n, 1), (-n + d - 1, -1))
        for op in (FLOORDIV, CEILDIV)
    ]
    return min(spellings, key=lambda sp: (sp.cost, sp.factor < 0)).build()


_ZERO = FlatExpr({})


# -- public operations -------------------------------------------------------------------------------


def _check_ids(expr: AffineExpr, num_dims: int, num_symbols: int) -> None:
    if any(p >= num_dims for p in expr.used_dims()) or any(
        p >= num_symbols for p in expr.used_symbols()
    ):
        raise ValueError(
            f"{expr} uses identifiers beyond {num_dims} dims and {num_symbols} symbols"
        )


def simplify_expr(
    expr: AffineExpr, num_dims: int, num_symbols: int, ranges: Ranges | None = None
) -> AffineExpr:
    """A simplified equivalent of ``expr``, never longer than it: the shorter spelling of its
    near and reduced normal forms (the same value at every point where ``expr`` is defined).  Equal inputs
    give identical results; for a form that is canonical across equal functions use
    ``flatten(expr, reduced=True)`` (or :func:`exprs_equal`).

    ``ranges`` maps ``dim(i)``/``symbol(j)`` to inclusive ``(lower, upper)`` bounds (None for
    unbounded); the result is then only equal to ``expr`` on points within those ranges.
    An expression that cannot be flattened (division by the constant zero) is returned as is.
    """
    _check_ids(expr, num_dims, num_symbols)
    try:
        near = flatten(expr, ranges)
        if not near.locals():
            return _present(near)
        reduced = flatten(expr, ranges, reduced=True)
    except FlattenError:
        return expr
    # The shorter spelling of the two normal forms (the near one on a tie), unless ``expr``
    # is shorter still: simplifying never lengthens, so it is idempotent in size.
    return min(_present(near), _present(reduced), expr, key=expr_size)


def simplify_map(m: AffineMap, ranges: Ranges | None = None) -> AffineMap:
    """Each result simplified by :func:`simplify_expr` (the seed ``size`` is kept)."""
    return AffineMap.get(
        m.num_dims,
        m.num_symbols,
        [simplify_expr(r, m.num_dims, m.num_symbols, ranges) for r in m.results],
        m.size,
    )


def simplify_set(s: IntegerSet, ranges: Ranges | None = None) -> IntegerSet:
    """Constraints in canonical form: each simplified and divided by the gcd of its
    coefficients, equalities with a positive leading coefficient, trivially true and
    repeated constraints dropped; a trivially false set is MLIR's ``(1 == 0)``."""
    seen: dict[tuple[AffineExpr, bool], None] = {}
    for c, eq in zip(s.constraints, s.eq_flags):
        try:
            flat = flatten(c, ranges)
        except FlattenError:
            seen.setdefault((c, eq), None)
            continue
        normal = _normalize_constraint(flat, eq)
        if normal is None:
            return IntegerSet.empty(s.num_dims, s.num_symbols)
        if normal.is_constant:  # trivially true
            continue
        seen.setdefault((_present(normal), eq), None)
    return IntegerSet.get(s.num_dims, s.num_symbols, [c for c, _ in seen], [eq for _, eq in seen])


def _normalize_constraint(flat: FlatExpr, equality: bool) -> FlatExpr | None:
    """``flat >= 0`` / ``flat == 0`` with the gcd divided out; None when never satisfied."""
    if flat.is_constant:
        value = flat.constant_term
        return flat if (value == 0 if equality else value >= 0) else None
    g = flat.content()
    c = flat.constant_term
    if equality:
        if c % g:
            return None
        flat = FlatExpr({m: a // g for m, a in flat.terms})
        return -flat if _leading_coefficient(flat) < 0 else flat
    # g*e + c >= 0  <=>  e + floor(c/g) >= 0
    return FlatExpr({m: a // g for m, a in flat.terms if m != ()}) + c // g


def exprs_equal(a: AffineExpr, b: AffineExpr, ranges: Ranges | None = None) -> bool | None:
    """True when the reduced normal forms agree (then the functions are equal, within
    ``ranges``); None otherwise: different normal forms can still denote one function
    (``poly`` decides equality exactly)."""
    try:
        return True if flatten(a - b, ranges, reduced=True).is_zero else None
    except FlattenError:
        return None


def dim_ranges(
    bounds: Sequence[Bound], symbol_bounds: Sequence[Bound] = ()
) -> dict[AffineExpr, Bound]:
    """Ranges for ``d0, d1, ...`` (then ``s0, ...``) from inclusive ``(lower, upper)`` pairs."""
    out: dict[AffineExpr, Bound] = {dim(i): b for i, b in enumerate(bounds)}
    out.update({symbol(j): b for j, b in enumerate(symbol_bounds)})
    return out
