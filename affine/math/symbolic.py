"""sympy as the bridge for symbolic work: conversion both ways, LaTeX, solving.

Invariant: ``from_sympy(to_sympy(e)) `` computes the same function as ``e``; ``floordiv``,
``ceildiv`` and ``mod`` map to sympy's ``floor``, ``ceiling`` and ``Mod`` (``Mod`` takes the
sign of the divisor, as ``mod`` does).  Dimensions and symbols become integer sympy symbols
named ``d0, d1, ..``/``s0, ..`` unless names are given.

sympy is imported inside the functions: importing :mod:`affine` never loads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from affine.errors import PolyError
from affine.math.affine_map import AffineMap
from affine.math.expr import (
    CONST,
    DIM,
    AffineExpr,
    AffineExprError,
    constant,
    dim,
    fold_arithmetic,
    symbol,
)
from affine.math.integer_set import IntegerSet
from affine.math.interning import Interned
from affine.math.simplify import expr_size, simplify_expr

if TYPE_CHECKING:
    import sympy


class NotAffineError(PolyError, ValueError):
    """A sympy expression that is not a (semi-)affine expression over the given names."""


def _names(count: int, given: Sequence[str] | None, prefix: str) -> list[str]:
    if given is None:
        return [f"{prefix}{i}" for i in range(count)]
    if len(given) < count:
        raise ValueError(f"need {count} names, got {list(given)}")
    return list(given)


def _symbols(names: Sequence[str]) -> list[sympy.Symbol]:
    import sympy

    return [sympy.Symbol(name, integer=True) for name in names]


def to_sympy(
    expr: AffineExpr, dim_names: Sequence[str] | None = None, sym_names: Sequence[str] | None = None
) -> sympy.Expr:
    """``expr`` as a sympy expression over integer symbols."""
    import sympy

    dims = _symbols(_names(max(expr.used_dims(), default=-1) + 1, dim_names, "d"))
    syms = _symbols(_names(max(expr.used_symbols(), default=-1) + 1, sym_names, "s"))

    def leaf(e: AffineExpr) -> sympy.Expr:
        if e.kind == CONST:
            return sympy.Integer(e.value)
        return dims[e.value] if e.kind == DIM else syms[e.value]

    # Divisions are kept as written: sympy's automatic rewriting of them can leave the
    # affine forms (a product of two Mods, say).
    return fold_arithmetic(
        expr,
        leaf,
        floordiv=lambda lhs, rhs: sympy.floor(lhs / rhs, evaluate=False),
        ceildiv=lambda lhs, rhs: sympy.ceiling(lhs / rhs, evaluate=False),
        mod=lambda lhs, rhs: sympy.Mod(lhs, rhs, evaluate=False),
    )


def from_sympy(
    sexpr: Any, dim_names: Sequence[str] = (), sym_names: Sequence[str] = ()
) -> AffineExpr:
    """The affine expression of a sympy expression over the named dims and symbols.

    Raises :class:`NotAffineError` naming the offending part when the expression is not
    (semi-)affine: a non-integer coefficient, an unknown name, a product of two
    dimension-dependent factors, a division by one, a power, or another function.
    """
    import sympy

    positions = {name: dim(i) for i, name in enumerate(dim_names)}
    positions.update({name: symbol(j) for j, name in enumerate(sym_names)})

    def rec(e: Any) -> AffineExpr:
        if isinstance(e, sympy.Integer):
            return constant(int(e))
        if isinstance(e, sympy.Rational):
            raise NotAffineError(f"{e} is not an integer (in {sexpr})")
        if isinstance(e, sympy.Symbol):
            if e.name not in positions:
                raise NotAffineError(f"unknown name {e.name!r} in {sexpr}")
            return positions[e.name]
        if isinstance(e, sympy.Add):
            return _fold(rec(a) for a in e.args)
        if isinstance(e, sympy.Mul):
            return _product([rec(a) for a in e.args], e)
        if isinstance(e, sympy.Pow) and e.exp.is_Integer and int(e.exp) > 0:
            return _product([rec(e.base)] * int(e.exp), e)
        if isinstance(e, (sympy.floor, sympy.ceiling)):
            numerator, denominator = sympy.fraction(sympy.together(e.args[0]))
            n, d = rec(numerator), rec(denominator)
            try:
                return n.floordiv(d) if isinstance(e, sympy.floor) else n.ceildiv(d)
            except AffineExprError as err:
                raise NotAffineError(f"{e}: {err}") from err
        if isinstance(e, sympy.Mod):
            try:
                return rec(e.args[0]).mod(rec(e.args[1]))
            except AffineExprError as err:
                raise NotAffineError(f"{e}: {err}") from err
        raise NotAffineError(f"{e} ({type(e).__name__}) is not affine (in {sexpr})")

    names = {name: sympy.Symbol(name, integer=True) for name in positions}
    return rec(sympy.sympify(sexpr, locals=names))


def _fold(terms) -> AffineExpr:
    total: AffineExpr = constant(0)
    for t in terms:
        total = total + t
    return total


def _product(factors: list[AffineExpr], context: Any) -> AffineExpr:
    # Symbolic factors first, so every partial product has a symbolic operand.
    ordered = sorted(factors, key=lambda f: not f.is_symbolic_or_constant())
    result: AffineExpr = constant(1)
    for f in ordered:
        try:
            result = result * f
        except AffineExprError as err:
            raise NotAffineError(f"{context}: {err}") from err
    return result


# -- LaTeX -----------------------------------------------------------------------------------------


def latex_expr(
    expr: AffineExpr, dim_names: Sequence[str] | None = None, sym_names: Sequence[str] | None = None
) -> str:
    """LaTeX for ``expr`` (through sympy): ``\\left\\lfloor{\\frac{d_{0}}{4}}\\right\\rfloor``."""
    import sympy

    return sympy.latex(to_sympy(expr, dim_names, sym_names))


def _latex_ids(count: int, names: Sequence[str] | None, prefix: str) -> list[str]:
    import sympy

    return [sympy.latex(s) for s in _symbols(_names(count, names, prefix))]


def latex_map(
    m: AffineMap, dim_names: Sequence[str] | None = None, sym_names: Sequence[str] | None = None
) -> str:
    """``(d_{0}, d_{1})[s_{0}] \\mapsto (...)``."""
    head = "(" + ", ".join(_latex_ids(m.num_dims, dim_names, "d")) + ")"
    if m.num_symbols:
        head += "[" + ", ".join(_latex_ids(m.num_symbols, sym_names, "s")) + "]"
    body = ", ".join(latex_expr(r, dim_names, sym_names) for r in m.results)
    return f"{head} \\mapsto ({body})"


def latex_set(
    s: IntegerSet, dim_names: Sequence[str] | None = None, sym_names: Sequence[str] | None = None
) -> str:
    """``\\{ (d_{0}) : d_{0} \\geq 0 \\}`` (symbols listed as parameters)."""
    head = "(" + ", ".join(_latex_ids(s.num_dims, dim_names, "d")) + ")"
    if s.num_symbols:
        head = "[" + ", ".join(_latex_ids(s.num_symbols, sym_names, "s")) + "] \\to " + head
    parts = [
        latex_expr(c, dim_names, sym_names) + (" = 0" if eq else " \\geq 0")
        for c, eq in zip(s.constraints, s.eq_flags)
    ]
    return "\\{ " + head + " : " + (", ".join(parts) if parts else "\\top") + " \\}"


def display_latex(obj: Interned) -> str:
    """``$...$`` for Jupyter's ``_repr_latex_`` of an expression, a map or a set."""
    if isinstance(obj, AffineMap):
        return f"${latex_map(obj)}$"
    if isinstance(obj, IntegerSet):
        return f"${latex_set(obj)}$"
    if isinstance(obj, AffineExpr):
        return f"${latex_expr(obj)}$"
    raise TypeError(f"no LaTeX for {type(obj).__name__}")


# -- symbolic work -----------------------------------------------------------------------------------


def sympy_simplify(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    """The shorter of :func:`affine.math.simplify.simplify_expr` and sympy's ``simplify`` of the
    expression converted back (when sympy's result is affine)."""
    import sympy

    ours = simplify_expr(expr, num_dims, num_symbols)
    dims, syms = _names(num_dims, None, "d"), _names(num_symbols, None, "s")
    try:
        theirs = from_sympy(sympy.simplify(to_sympy(expr, dims, syms)), dims, syms)
    except NotAffineError:
        return ours
    theirs = simplify_expr(theirs, num_dims, num_symbols)
    return theirs if expr_size(theirs) < expr_size(ours) else ours


def solve_symbols(
    equations: Sequence[tuple[AffineExpr, AffineExpr]],
    unknowns: Sequence[int],
    num_dims: int,
    num_symbols: int,
) -> list[dict[int, AffineExpr]]:
    """Values of the symbols ``unknowns`` (positions) making every ``lhs == rhs`` hold for
    all dims, as sympy finds them (e.g. ``d0 * s0 + d1 == d0 * 4 + d1`` gives ``s0 = 4``):
    each solution maps a symbol position to an expression of the other symbols.  Solutions
    that are not affine raise :class:`NotAffineError`."""
    import sympy

    dims, syms = _names(num_dims, None, "d"), _names(num_symbols, None, "s")
    sym_objects = _symbols(syms)
    targets = [sym_objects[j] for j in unknowns]
    differences = [to_sympy(lhs - rhs, dims, syms) for lhs, rhs in equations]
    # Equal for all dims: every coefficient of the polynomial in the dims vanishes.
    dim_objects = _symbols(dims)
    conditions: list[sympy.Expr] = []
    for difference in differences:
        poly = sympy.Poly(sympy.expand(difference), *dim_objects) if dim_objects else None
        conditions += poly.coeffs() if poly is not None else [difference]
    solutions = sympy.solve(conditions, targets, dict=True)
    out: list[dict[int, AffineExpr]] = []
    for solution in solutions:
        out.append(
            {
                unknowns[targets.index(s)]: from_sympy(value, dims, syms)
                for s, value in solution.items()
            }
        )
    return out
