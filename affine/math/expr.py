"""Affine and semi-affine expressions: immutable, interned, canonicalised on construction.

An :class:`AffineExpr` is a tree over dimensions ``d_i``, symbols ``s_j`` and integer
constants, combined with ``+``, ``*``, ``floordiv``, ``ceildiv`` and ``mod``.  Expressions
are interned: two expressions are equal exactly when they are the same object, so ``==``,
``hash`` and ``is`` agree and are cheap.

Construction applies the same local rewrite rules as MLIR's ``AffineExpr`` operators
(``simplifyAdd``, ``simplifyMul``, ``simplifyFloorDiv``, ``simplifyCeilDiv``,
``simplifyMod`` in mlir/lib/IR/AffineExpr.cpp as shipped in LLVM 22).  Keeping exactly
these rules, and no more, means an expression prints as ``mlir-opt`` prints it, so text we
print re-parses in ``mlir-opt`` to the same expression.  Stronger simplification (flattening
to a linear form with division terms, range-aware rules) is an explicit operation:
:func:`affine.math.simplify.simplify_expr`.

Semi-affine expressions (multiplication by a symbol; ``floordiv``/``ceildiv``/``mod`` by a
symbolic expression) are the same class; :meth:`AffineExpr.is_pure_affine` tells them
apart.  Products of two dimension-dependent terms, or division by one, are rejected with
:class:`AffineExprError`, as in MLIR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from math import gcd
from typing import TypeVar, Union

from affine.errors import PolyError
from affine.math.interning import Interned, InternTable

ADD = "+"
MUL = "*"
FLOORDIV = "floordiv"
CEILDIV = "ceildiv"
MOD = "mod"
CONST = "const"
DIM = "dim"
SYMBOL = "symbol"

BINARY_KINDS = (ADD, MUL, FLOORDIV, CEILDIV, MOD)

ExprLike = Union["AffineExpr", int]
T = TypeVar("T")


class AffineExprError(PolyError, ValueError):
    """An expression that is not (semi-)affine, e.g. ``d0 * d1`` or ``d0 floordiv d1``."""


def floor_div(a: int, b: int) -> int:
    """Integer division rounding toward negative infinity (``b != 0``)."""
    return a // b


def ceil_div(a: int, b: int) -> int:
    """Integer division rounding toward positive infinity (``b != 0``)."""
    return -((-a) // b)


def mod(a: int, b: int) -> int:
    """MLIR's ``mod``: the remainder with the sign of the divisor (non-negative for b > 0)."""
    return a % b


class AffineExpr(Interned):
    """An interned affine expression node.  Build with :func:`dim`, :func:`symbol`,
    :func:`constant` and the arithmetic operators; never call the constructor."""

    __slots__ = ("_symbolic", "kind", "lhs", "rhs", "value")
    BUILT_BY = "dim(), symbol(), constant() and the arithmetic operators"

    kind: str
    lhs: AffineExpr
    rhs: AffineExpr
    value: int  # constant value, or dim/symbol position
    _symbolic: bool  # no dimension occurs in the expression

    # -- construction -------------------------------------------------------------------

    def __add__(self, other: ExprLike) -> AffineExpr:
        other = _as_expr(other)
        return _simplify_add(self, other) or _binary(ADD, self, other)

    def __radd__(self, other: int) -> AffineExpr:
        return _as_expr(other) + self

    def __mul__(self, other: ExprLike) -> AffineExpr:
        other = _as_expr(other)
        if not (self._symbolic or other._symbolic):
            raise AffineExprError(
                "non-affine expression: at least one of the multiply operands has to be "
                "either a constant or symbolic"
            )
        return _simplify_mul(self, other) or _binary(MUL, self, other)

    def __rmul__(self, other: int) -> AffineExpr:
        return self * other

    def __neg__(self) -> AffineExpr:
        return self * -1

    def __sub__(self, other: ExprLike) -> AffineExpr:
        return self + (-_as_expr(other))

    def __rsub__(self, other: int) -> AffineExpr:
        return _as_expr(other) + (-self)

    def floordiv(self, other: ExprLike) -> AffineExpr:
        other = _as_expr(other)
        _check_divisor(FLOORDIV, other)
        return _simplify_floordiv(self, other) or _binary(FLOORDIV, self, other)

    def ceildiv(self, other: ExprLike) -> AffineExpr:
        other = _as_expr(other)
        _check_divisor(CEILDIV, other)
        return _simplify_ceildiv(self, other) or _binary(CEILDIV, self, other)

    def mod(self, other: ExprLike) -> AffineExpr:
        other = _as_expr(other)
        _check_divisor(MOD, other)
        return _simplify_mod(self, other) or _binary(MOD, self, other)

    __floordiv__ = floordiv
    __mod__ = mod

    def binary(self, kind: str, other: ExprLike) -> AffineExpr:
        """``self <kind> other`` for one of ``+ * floordiv ceildiv mod``."""
        if kind == ADD:
            return self + other
        if kind == MUL:
            return self * other
        if kind == FLOORDIV:
            return self.floordiv(other)
        if kind == CEILDIV:
            return self.ceildiv(other)
        if kind == MOD:
            return self.mod(other)
        raise ValueError(f"unknown binary affine operator {kind!r}")

    # -- queries ------------------------------------------------------------------------

    @property
    def is_constant(self) -> bool:
        return self.kind == CONST

    @property
    def is_dim(self) -> bool:
        return self.kind == DIM

    @property
    def is_symbol(self) -> bool:
        return self.kind == SYMBOL

    @property
    def is_binary(self) -> bool:
        return self.kind in BINARY_KINDS

    @property
    def position(self) -> int:
        """Position of a dimension or symbol expression."""
        if self.kind not in (DIM, SYMBOL):
            raise TypeError(f"{self} is not a dimension or symbol")
        return self.value

    def is_symbolic_or_constant(self) -> bool:
        """True when no dimension occurs in the expression."""
        return self._symbolic

    def is_pure_affine(self) -> bool:
        """True when multiplication and division are only by integer constants."""
        kind = self.kind
        if kind in (CONST, DIM, SYMBOL):
            return True
        if kind == ADD:
            return self.lhs.is_pure_affine() and self.rhs.is_pure_affine()
        if kind == MUL:
            return (
                self.lhs.is_pure_affine()
                and self.rhs.is_pure_affine()
                and (self.lhs.kind == CONST or self.rhs.kind == CONST)
            )
        return self.lhs.is_pure_affine() and self.rhs.kind == CONST

    def largest_known_divisor(self) -> int:
        """The largest integer known to divide every value of the expression (MLIR rule)."""
        kind = self.kind
        if kind == CONST:
            return abs(self.value)
        if kind == MUL:
            return self.lhs.largest_known_divisor() * self.rhs.largest_known_divisor()
        if kind in (ADD, MOD):
            return gcd(self.lhs.largest_known_divisor(), self.rhs.largest_known_divisor())
        return 1

    def is_multiple_of(self, factor: int) -> bool:
        kind = self.kind
        if kind in (DIM, SYMBOL):
            return factor * factor == 1
        if kind == CONST:
            return self.value % factor == 0
        if kind == MUL:
            left = self.lhs.largest_known_divisor()
            right = self.rhs.largest_known_divisor()
            return left % factor == 0 or right % factor == 0 or (left * right) % factor == 0
        return gcd(self.lhs.largest_known_divisor(), self.rhs.largest_known_divisor()) % factor == 0

    def walk(self) -> Iterator[AffineExpr]:
        """All sub-expressions in post-order (children before parents)."""
        if self.kind in BINARY_KINDS:
            yield from self.lhs.walk()
            yield from self.rhs.walk()
        yield self

    def used_dims(self) -> frozenset[int]:
        return frozenset(e.value for e in self.walk() if e.kind == DIM)

    def used_symbols(self) -> frozenset[int]:
        return frozenset(e.value for e in self.walk() if e.kind == SYMBOL)

    def is_function_of_dim(self, position: int) -> bool:
        return position in self.used_dims()

    def is_function_of_symbol(self, position: int) -> bool:
        return position in self.used_symbols()

    # -- transformation -----------------------------------------------------------------

    def replace(
        self,
        dims: Sequence[AffineExpr] | None = None,
        symbols: Sequence[AffineExpr] | None = None,
    ) -> AffineExpr:
        """Substitute ``dims[i]`` for ``d_i`` and ``symbols[j]`` for ``s_j``.

        Positions past the end of a replacement list are left alone (MLIR's
        ``replaceDimsAndSymbols``); the result is rebuilt through the simplifying operators.
        """
        dims = dims or ()
        symbols = symbols or ()

        def leaf(e: AffineExpr) -> AffineExpr:
            if e.kind == DIM and e.value < len(dims):
                return dims[e.value]
            if e.kind == SYMBOL and e.value < len(symbols):
                return symbols[e.value]
            return e

        def node(e: AffineExpr, value_of: Callable[[AffineExpr], AffineExpr]) -> AffineExpr:
            lhs, rhs = value_of(e.lhs), value_of(e.rhs)
            return e if (lhs is e.lhs and rhs is e.rhs) else lhs.binary(e.kind, rhs)

        return fold(self, leaf, node)

    def shift_dims(self, num_dims: int, shift: int, offset: int = 0) -> AffineExpr:
        """Rename ``d_i`` to ``d_{i+shift}`` for ``offset <= i < num_dims``."""
        return self.replace(
            [dim(i) for i in range(offset)] + [dim(i + shift) for i in range(offset, num_dims)]
        )

    def shift_symbols(self, num_symbols: int, shift: int, offset: int = 0) -> AffineExpr:
        """Rename ``s_i`` to ``s_{i+shift}`` for ``offset <= i < num_symbols``."""
        return self.replace(
            None,
            [symbol(i) for i in range(offset)]
            + [symbol(i + shift) for i in range(offset, num_symbols)],
        )

    def evaluate(self, dims: Sequence[int] = (), symbols: Sequence[int] = ()) -> int:
        """Value at integer point ``dims`` with symbol values ``symbols``.

        Raises :class:`ZeroDivisionError` on division by zero and :class:`ValueError` on a
        division by a negative symbolic value (undefined in MLIR).
        """
        kind = self.kind
        if kind == CONST:
            return self.value
        if kind == DIM:
            return dims[self.value]
        if kind == SYMBOL:
            return symbols[self.value]
        lhs = self.lhs.evaluate(dims, symbols)
        rhs = self.rhs.evaluate(dims, symbols)
        if kind == ADD:
            return lhs + rhs
        if kind == MUL:
            return lhs * rhs
        if rhs == 0:
            raise ZeroDivisionError(f"division by zero in {self}")
        if rhs < 0 and self.rhs.kind != CONST:
            raise ValueError(f"division by the negative value {rhs} in {self}")
        if kind == FLOORDIV:
            return floor_div(lhs, rhs)
        if kind == CEILDIV:
            return ceil_div(lhs, rhs)
        return mod(lhs, rhs)

    # -- printing -----------------------------------------------------------------------

    def __str__(self) -> str:
        return print_expr(self)

    def __reduce__(self) -> tuple:  # pickling rebuilds through the interning constructors
        if self.kind == CONST:
            return (constant, (self.value,))
        if self.kind == DIM:
            return (dim, (self.value,))
        if self.kind == SYMBOL:
            return (symbol, (self.value,))
        return (_rebuild_binary, (self.kind, self.lhs, self.rhs))


# -- interning ---------------------------------------------------------------------------

_TABLE: InternTable[AffineExpr] = InternTable()


def _leaf(kind: str, value: int) -> AffineExpr:
    key = (kind, value)
    e = _TABLE.get(key)
    if e is None:
        e = object.__new__(AffineExpr)
        e.kind = kind
        e.value = value
        e._symbolic = kind != DIM
        _TABLE.add(key, e)
    return e


def _binary(kind: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """The raw interned node ``lhs <kind> rhs`` (no simplification)."""
    key = (kind, id(lhs), id(rhs))
    e = _TABLE.get(key)
    if e is None:
        e = object.__new__(AffineExpr)
        e.kind = kind
        e.lhs = lhs
        e.rhs = rhs
        e.value = 0
        e._symbolic = lhs._symbolic and rhs._symbolic
        # Children are kept alive by the node itself, so their ids in the key stay valid.
        _TABLE.add(key, e)
    return e


def fold(
    expr: AffineExpr,
    leaf: Callable[[AffineExpr], T],
    node: Callable[[AffineExpr, Callable[[AffineExpr], T]], T],
) -> T:
    """The value of ``expr`` computed bottom-up: ``leaf(e)`` for a constant, dimension or
    symbol, ``node(e, value_of)`` for a binary node, where ``value_of`` gives the value of a
    subexpression (asked for when needed). Each distinct subexpression is computed once:
    expressions are DAGs, and shared subtrees would otherwise be visited once per path."""
    memo: dict[AffineExpr, T] = {}

    def value_of(e: AffineExpr) -> T:
        if e in memo:
            return memo[e]
        value = memo[e] = node(e, value_of) if e.kind in BINARY_KINDS else leaf(e)
        return value

    return value_of(expr)


def fold_arithmetic(
    expr: AffineExpr,
    leaf: Callable[[AffineExpr], T],
    floordiv: Callable[[T, T], T],
    ceildiv: Callable[[T, T], T],
    mod: Callable[[T, T], T],
) -> T:
    """:func:`fold` into values with their own ``+`` and ``*`` (sympy expressions, flat
    forms): a sum or product is that of its operands' values, a division or modulo the given
    function of them."""
    divisions = {FLOORDIV: floordiv, CEILDIV: ceildiv, MOD: mod}

    def node(e: AffineExpr, value_of: Callable[[AffineExpr], T]) -> T:
        lhs, rhs = value_of(e.lhs), value_of(e.rhs)
        if e.kind == ADD:
            return lhs + rhs  # type: ignore[operator]  # T has + and * by this function's contract
        if e.kind == MUL:
            return lhs * rhs  # type: ignore[operator]  # (as above)
        return divisions[e.kind](lhs, rhs)

    return fold(expr, leaf, node)


def _rebuild_binary(kind: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return lhs.binary(kind, rhs)


def dim(position: int) -> AffineExpr:
    """The dimension ``d<position>``."""
    return _leaf(DIM, position)


def symbol(position: int) -> AffineExpr:
    """The symbol ``s<position>``."""
    return _leaf(SYMBOL, position)


def constant(value: int) -> AffineExpr:
    """The integer constant ``value``."""
    return _leaf(CONST, int(value))


def dims(count: int) -> list[AffineExpr]:
    return [dim(i) for i in range(count)]


def symbols(count: int) -> list[AffineExpr]:
    return [symbol(i) for i in range(count)]


def _as_expr(value: ExprLike) -> AffineExpr:
    if isinstance(value, AffineExpr):
        return value
    if isinstance(value, int):
        return constant(value)
    raise TypeError(f"cannot use {value!r} in an affine expression")


def _check_divisor(kind: str, rhs: AffineExpr) -> None:
    if not rhs._symbolic:
        raise AffineExprError(
            f"non-affine expression: right operand of {kind} has to be either a constant or "
            "symbolic"
        )


# -- MLIR's construction-time simplifications ---------------------------------------------

_INT64_MIN = -(2**63)


def _checked_constant(value: int) -> AffineExpr | None:
    """The folded constant, or None (no fold) when it leaves int64: MLIR 22 keeps
    ``4611686018427387904 * 4`` as written."""
    return constant(value) if _INT64_MIN <= value < -_INT64_MIN else None


def _wrapped(value: int) -> int:
    """``value`` modulo 2^64 as a signed int64: MLIR 22 folds ``(d0 * c1) * c2`` and
    ``(d0 + c1) + c2`` in int64 arithmetic, which wraps."""
    return (value - _INT64_MIN) % 2**64 + _INT64_MIN


def _is_const(e: AffineExpr, value: int | None = None) -> bool:
    return e.kind == CONST and (value is None or e.value == value)


def _simplify_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lk, rk = lhs.kind, rhs.kind
    if lk == CONST and rk == CONST:
        return _checked_constant(lhs.value + rhs.value)
    # Constants go right; a symbolic operand goes right of a dimensional one.
    if lk == CONST or (lhs._symbolic and not rhs._symbolic):
        return rhs + lhs
    # Two dimensions (or two symbols) are ordered by position: d1 + d0 -> d0 + d1.
    if lk == rk and lk in (DIM, SYMBOL) and lhs.value > rhs.value:
        return rhs + lhs
    if rk == CONST and rhs.value == 0:
        return lhs
    # (e + c1) + c2 -> e + (c1 + c2)
    if lk == ADD and rk == CONST and lhs.rhs.kind == CONST:
        return lhs.lhs + _wrapped(lhs.rhs.value + rhs.value)
    # c1 * e + c2 * e -> (c1 + c2) * e
    if lk == MUL and lhs.rhs.kind == CONST:
        first, first_coeff = lhs.lhs, lhs.rhs.value
    else:
        first, first_coeff = lhs, 1
    if rk == MUL and rhs.rhs.kind == CONST:
        second, second_coeff = rhs.lhs, rhs.rhs.value
    else:
        second, second_coeff = rhs, 1
    if first is second:
        return first * _wrapped(first_coeff + second_coeff)
    # (e + c) + x -> (e + x) + c
    if lk == ADD and lhs.rhs.kind == CONST:
        return lhs.lhs + rhs + lhs.rhs
    # e - q * (e floordiv q) -> e mod q (q constant or symbolic).
    if rk not in BINARY_KINDS:
        return None
    lrhs, rrhs = rhs.lhs, rhs.rhs
    if rrhs.kind == CONST and rrhs.value == -1 and lrhs.kind == MUL:
        inner = lrhs.lhs
        if inner.kind != FLOORDIV:
            return None
        if inner.rhs is lrhs.rhs and lhs is inner.lhs:
            return lhs.mod(lrhs.rhs)
    if lrhs.kind != FLOORDIV:
        return None
    # expr + (expr floordiv c) * -c -> expr mod c, for a positive constant c only.
    positive_divisor = lrhs.rhs.kind == CONST and lrhs.rhs.value > 0
    if rk == MUL and positive_divisor and lhs is lrhs.lhs and lrhs.rhs is -rrhs:
        return lhs.mod(lrhs.rhs)
    # (a + b) + (x floordiv q) * k: try to combine b with the division term.
    if rk == MUL and lk == ADD:
        combined = _simplify_add(lhs.rhs, rhs)
        if combined is not None:
            return lhs.lhs + combined
    return None


def _simplify_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lk, rk = lhs.kind, rhs.kind
    if lk == CONST and rk == CONST:
        return _checked_constant(lhs.value * rhs.value)
    # The constant or symbolic operand goes right; two symbols are ordered by position.
    if not rhs._symbolic or lk == CONST:
        return rhs * lhs
    if lk == rk == SYMBOL and lhs.value > rhs.value:
        return rhs * lhs
    if rk == CONST:
        if rhs.value == 1:
            return lhs
        if rhs.value == 0:
            return rhs
    if lk == MUL and lhs.rhs.kind == CONST:
        # (e * c1) * c2 -> e * (c1 * c2);  (e * c) * x -> (e * x) * c
        if rk == CONST:
            return lhs.lhs * _wrapped(lhs.rhs.value * rhs.value)
        return (lhs.lhs * rhs) * lhs.rhs
    return None


def _simplify_division(
    lhs: AffineExpr, rhs: AffineExpr, divide: Callable[[int, int], int]
) -> AffineExpr | None:
    """MLIR 22's folds shared by floordiv and ceildiv: by any nonzero constant (negative
    ones included) except the one that overflows int64, by 1, and of a multiple."""
    if rhs.kind != CONST or rhs.value == 0:
        return None
    q = rhs.value
    if lhs.kind == CONST:
        if lhs.value == _INT64_MIN and q == -1:
            return None
        return constant(divide(lhs.value, q))
    if q == 1:
        return lhs
    if lhs.kind == MUL and lhs.rhs.kind == CONST and lhs.rhs.value % q == 0:
        return lhs.lhs * (lhs.rhs.value // q)
    return None


def _simplify_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    folded = _simplify_division(lhs, rhs, floor_div)
    if folded is not None or rhs.kind != CONST or rhs.value == 0:
        return folded
    q = rhs.value
    if lhs.kind == ADD and (
        lhs.lhs.largest_known_divisor() % q == 0 or lhs.rhs.largest_known_divisor() % q == 0
    ):
        return lhs.lhs.floordiv(q) + lhs.rhs.floordiv(q)
    return None


def _simplify_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    return _simplify_division(lhs, rhs, ceil_div)


def _simplify_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    if rhs.kind != CONST or rhs.value < 1:
        return None
    q = rhs.value
    if lhs.kind == CONST:
        return constant(mod(lhs.value, q))
    if lhs.largest_known_divisor() % q == 0:
        return constant(0)
    if lhs.kind == ADD:
        if lhs.lhs.largest_known_divisor() % q == 0:
            return lhs.rhs.mod(q)
        if lhs.rhs.largest_known_divisor() % q == 0:
            return lhs.lhs.mod(q)
    if lhs.kind == MOD and lhs.rhs.kind == CONST and lhs.rhs.value >= 1:
        if lhs.rhs.value % q == 0:
            return lhs.lhs.mod(q)
    return None


# -- printing ------------------------------------------------------------------------------

NameFn = Callable[[int, bool], str]  # (position, is_symbol) -> text


def _default_name(position: int, is_symbol: bool) -> str:
    return ("s" if is_symbol else "d") + str(position)


def print_expr(expr: AffineExpr, name: NameFn = _default_name) -> str:
    """Print ``expr`` exactly as mlir-opt's AsmPrinter does."""
    out: list[str] = []
    _print(expr, False, name, out)
    return "".join(out)


def _print(e: AffineExpr, strong: bool, name: NameFn, out: list[str]) -> None:
    kind = e.kind
    if kind == CONST:
        out.append(str(e.value))
        return
    if kind == DIM:
        out.append(name(e.value, False))
        return
    if kind == SYMBOL:
        out.append(name(e.value, True))
        return
    lhs, rhs = e.lhs, e.rhs
    if kind != ADD:
        if strong:
            out.append("(")
        if kind == MUL and rhs.kind == CONST and rhs.value == -1:
            out.append("-")
            _print(lhs, True, name, out)
        else:
            _print(lhs, True, name, out)
            out.append(" * " if kind == MUL else f" {kind} ")
            _print(rhs, True, name, out)
        if strong:
            out.append(")")
        return
    if strong:
        out.append("(")
    if rhs.kind == MUL and rhs.rhs.kind == CONST and rhs.rhs.value < 0:
        coeff = rhs.rhs.value
        _print(lhs, False, name, out)
        out.append(" - ")
        if coeff == -1:
            _print(rhs.lhs, rhs.lhs.kind == ADD, name, out)
        else:
            _print(rhs.lhs, True, name, out)
            out.append(f" * {_wrapped(-coeff)}")
    elif rhs.kind == CONST and rhs.value < 0:
        _print(lhs, False, name, out)
        out.append(f" - {_wrapped(-rhs.value)}")  # as int64: d0 - -9223372036854775808
    else:
        _print(lhs, False, name, out)
        out.append(" + ")
        _print(rhs, False, name, out)
    if strong:
        out.append(")")
