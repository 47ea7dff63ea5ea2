"""sympy conversion, LaTeX and solving (affine/math/symbolic.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sympy
from affine_strategies import box, exprs, value
from hypothesis import given, settings

from affine import parse_affine_expr, parse_affine_map, parse_integer_set, parse_type
from affine.analysis.layout import latex_layout
from affine.math.symbolic import (
    NotAffineError,
    from_sympy,
    latex_expr,
    latex_map,
    latex_set,
    solve_symbols,
    sympy_simplify,
    to_sympy,
)

DIMS, SYMS = ["d0", "d1"], ["s0", "s1"]


def test_conversion_maps_operators() -> None:
    e = parse_affine_expr("d0 floordiv 8 + d1 ceildiv s0 + (d0 - d1) mod 4 + d0 * s0", 2, 1)
    d0, d1, s0 = sympy.symbols("d0 d1 s0", integer=True)
    expected = sympy.floor(d0 / 8) + sympy.ceiling(d1 / s0) + sympy.Mod(d0 - d1, 4) + d0 * s0
    assert sympy.simplify(to_sympy(e) - expected) == 0


def test_names_can_be_given() -> None:
    e = parse_affine_expr("d0 + s0 * 2", 1, 1)
    assert str(to_sympy(e, ["i"], ["N"])) == "2*N + i"
    assert from_sympy("2*N + i", ["i"], ["N"]) is e


@settings(max_examples=200, deadline=None)
@given(exprs(num_dims=2, num_symbols=2, semi_affine=True))
def test_round_trip_computes_the_same_function(e) -> None:
    back = from_sympy(to_sympy(e, DIMS, SYMS), DIMS, SYMS)
    for ds, ss in box(2, 2, range(-3, 4), range(1, 3)):
        expected = value(e, ds, ss)
        if isinstance(expected, int):
            assert back.evaluate(ds, ss) == expected, (str(e), str(back))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("d0 * d1", "multiply operands"),
        ("d0 / 2", "not an integer"),
        ("sin(d0)", "not affine"),
        ("x + 1", "unknown name 'x'"),
        ("floor(s0 / d0)", "right operand of floordiv"),
        ("d0**2", "multiply operands"),
    ],
)
def test_non_affine_input_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(NotAffineError, match=reason):
        from_sympy(text, DIMS, SYMS)


def test_latex() -> None:
    e = parse_affine_expr("d0 floordiv 16 + d1 mod 4", 2, 0)
    assert latex_expr(e) == (
        "\\left(d_{1} \\bmod 4\\right) + \\left\\lfloor{\\frac{d_{0}}{16}}\\right\\rfloor"
    )
    m = parse_affine_map("(d0, d1)[s0] -> (d1, d0 + s0)")
    assert latex_map(m) == "(d_{0}, d_{1})[s_{0}] \\mapsto (d_{1}, d_{0} + s_{0})"
    s = parse_integer_set("(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)")
    assert (
        latex_set(s) == "\\{ [s_{0}] \\to (d_{0}) : d_{0} \\geq 0, - d_{0} + s_{0} - 1 \\geq 0 \\}"
    )
    t = parse_type("memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>")
    assert latex_layout(t) == (
        "\\mathtt{memref}\\langle 64 \\times 64 \\times \\mathtt{f32} \\rangle,\\ "
        "(d_{0}, d_{1}) \\mapsto (d_{1}, d_{0})"
    )
    strided = parse_type("memref<4x8xf32, strided<[16, 2], offset: ?>>")
    assert latex_layout(strided).endswith("\\mathrm{strides} = [16, 2],\\ \\mathrm{offset} = ?")


def test_jupyter_display_hooks() -> None:
    assert parse_affine_map("(d0) -> (d0 mod 4)")._repr_latex_() == (
        "$(d_{0}) \\mapsto (d_{0} \\bmod 4)$"
    )
    assert parse_affine_expr("d0 ceildiv 2", 1, 0)._repr_latex_() == (
        "$\\left\\lceil{\\frac{d_{0}}{2}}\\right\\rceil$"
    )
    assert parse_integer_set("(d0) : (d0 == 0)")._repr_latex_() == "$\\{ (d_{0}) : d_{0} = 0 \\}$"


def test_importing_affine_does_not_load_sympy() -> None:
    probe = (
        "import sys, affine, affine.math.symbolic, affine.math.simplify, affine.math.algebra, affine.analysis.layout;"
        "print('sympy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_solving_for_the_symbol_that_makes_two_accesses_meet() -> None:
    # A[d0 * s0 + d1] and A[d0 * 4 + d1] touch the same element for all (d0, d1) iff s0 = 4.
    a = parse_affine_expr("d0 * s0 + d1", 2, 1)
    b = parse_affine_expr("d0 * 4 + d1", 2, 1)
    assert solve_symbols([(a, b)], [0], 2, 1) == [{0: parse_affine_expr("4", 2, 1)}]
    # Two equations in two symbols: s0 + s1 = 10 and s0 - s1 = 2.
    eqs = [
        (parse_affine_expr("s0 + s1", 0, 2), parse_affine_expr("10", 0, 2)),
        (parse_affine_expr("s0 - s1", 0, 2), parse_affine_expr("2", 0, 2)),
    ]
    solution = solve_symbols(eqs, [0, 1], 0, 2)
    assert [{k: str(v) for k, v in sol.items()} for sol in solution] == [{0: "6", 1: "4"}]


def test_sympy_simplification_is_never_longer() -> None:
    e = parse_affine_expr("(d0 * 2 + 4) floordiv 2 - 2 + (d1 * s0) floordiv s0", 2, 1)
    assert str(sympy_simplify(e, 2, 1)) == "d0 + d1"
