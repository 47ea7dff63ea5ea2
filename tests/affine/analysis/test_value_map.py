"""MLIR's map algebra (affine/analysis/value_map.py): simplification, canonical operands,
composition with affine.apply, trip counts, and access to the maps of affine ops."""

from __future__ import annotations

import re

import pytest
from affine_strategies import exprs
from conftest import run_mlir_opt
from hypothesis import given, settings
from hypothesis import strategies as st

import affine
from affine import parse_affine_map
from affine.analysis.loops import constant_trip_count, largest_divisor_of_trip_count, trip_count
from affine.analysis.value_map import (
    MapSlot,
    ValueMap,
    as_read_back,
    canonicalize,
    concat,
    difference,
    fully_compose,
    map_operand_positions,
    map_slots,
    set_map_slots,
    simplify_affine_expr,
    simplify_affine_map,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import dim, symbol
from affine.ops import ForOp
from transforms.loop_utils import loops

# (map, MLIR's simplifyAffineMap of it): mod and ceildiv through floordiv locals, gcd
# cancellation, a division by a non-positive constant left alone.
SIMPLIFY = [
    ("(d0, d1) -> ((d0 * 4 + d1) mod 4)", "(d0, d1) -> (d1 mod 4)"),
    ("(d0) -> ((d0 - d0 mod 3) * 2)", "(d0) -> ((d0 floordiv 3) * 6)"),
    ("(d0)[s0] -> ((s0 - d0) ceildiv 2)", "(d0)[s0] -> ((-d0 + s0) ceildiv 2)"),
    ("(d0) -> ((d0 * 6 + 4) floordiv 2)", "(d0) -> (d0 * 3 + 2)"),
    ("()[s0, s1] -> (s0 + ((s1 - s0) ceildiv 2 - ((s1 - s0) ceildiv 2) mod 4) * 2)",
     "()[s0, s1] -> (s0 + (((-s0 + s1) ceildiv 2) floordiv 4) * 8)"),
    ("(d0) -> (d0 floordiv -2)", "(d0) -> (d0 floordiv -2)"),
    ("(d0, d1) -> (d1 + d0 - d1, 7)", "(d0, d1) -> (d0, 7)"),
    # read as (-(d0 + 1) + s0) floordiv 2 + 1: the constant, a multiple of 2, leaves the division
    ("(d0)[s0] -> ((-(d0 + 1) + s0 + 2) floordiv 2)", "(d0)[s0] -> ((-d0 + s0 - 1) floordiv 2 + 1)"),
]  # fmt: skip


@pytest.mark.parametrize(("source", "expected"), SIMPLIFY)
def test_simplify_map_table(source: str, expected: str) -> None:
    assert str(simplify_affine_map(parse_affine_map(source))) == expected


def test_simplify_leaves_semi_affine_expressions_alone() -> None:
    e = (dim(0) * symbol(0)).floordiv(symbol(0)) + dim(0) - dim(0)
    assert simplify_affine_expr(e, 1, 1) is e


@pytest.mark.mlir
@settings(max_examples=4, deadline=None)
@given(
    results=st.lists(
        exprs(num_dims=3, num_symbols=2, negative_divisors=False, max_leaves=12),
        min_size=80,
        max_size=80,
    )
)
def test_simplify_map_agrees_with_mlir_opt(results, mlir_opt: str) -> None:
    """Each map is simplified as mlir-opt reads its text: a generated tree such as
    ``e + (s0 + 2)`` prints like ``e + s0 + 2``, which the reader builds (with MLIR's
    construction rules) as another tree, ``(e + s0) floordiv 2 + 1`` under a floordiv 2."""
    maps = [AffineMap.get(3, 2, [e]) for e in results]
    attrs = ", ".join(f"a{i} = affine_map<{m}>" for i, m in enumerate(maps))
    text = f'func.func @f() {{\n  "test.op"() {{{attrs}}} : () -> ()\n  return\n}}\n'
    result = run_mlir_opt(
        mlir_opt,
        text,
        "--pass-pipeline=builtin.module(func.func(affine-simplify-structures))",
        "--mlir-print-op-generic",
    )
    assert result.returncode == 0, result.stderr
    aliases = dict(re.findall(r"^#(\w+) = affine_map<(.*)>$", result.stdout, re.M))
    found = dict(re.findall(r"\ba(\d+) = #(\w+)", result.stdout))
    for i, m in enumerate(maps):
        read = parse_affine_map(str(m))
        assert str(simplify_affine_map(read)) == aliases[found[str(i)]], str(m)


FUNCTION = """
func.func @f(%A: memref<100xf32>, %N: index, %M: index) {
  %c4 = arith.constant 4 : index
  affine.for %i = 0 to %N {
    %a = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %b = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%a)[%M]
    %v = affine.load %A[%b + %i] : memref<100xf32>
    affine.store %v, %A[%c4] : memref<100xf32>
  }
  return
}
"""


def _values():
    module = affine.parse(FUNCTION)
    function = module.functions()[0]
    args = function.regions[0].blocks[0].arguments
    body = function.regions[0].blocks[0].operations
    c4 = body[0].result
    loop = loops(module)[0]
    iv = ForOp(loop).induction_var
    a, b = (op.result for op in ForOp(loop).body.operations[:2])
    return module, args, c4, iv, a, b


def test_canonicalize_promotes_symbols_merges_duplicates_and_folds_constants() -> None:
    _, args, c4, iv, _, _ = _values()
    n = args[1]
    m = parse_affine_map("(d0, d1, d2, d3)[s0] -> (d0 + d1 + d2 * s0, d3)")
    new, operands = canonicalize(m, [iv, n, iv, iv, c4])
    assert str(new) == "(d0)[s0] -> (d0 + s0 + d0 * 4, d0)"  # not simplified, as in MLIR
    assert operands == [iv, n]
    kept, same = canonicalize(m, [iv, n, iv, iv, c4], promote_symbols=False)
    assert same == [iv, n] and kept.num_dims == 2


def test_compose_pulls_in_affine_apply_chains() -> None:
    _, args, _, iv, _, b = _values()
    composed = fully_compose(ValueMap(parse_affine_map("(d0, d1) -> (d0 + d1)"), (b, iv)))
    assert str(composed.map) == "(d0)[s0] -> (d0 * 3 + s0)"
    assert composed.operands == (iv, args[2])


def test_difference_and_concat() -> None:
    _, args, _, iv, a, _ = _values()
    n = args[1]
    upper = ValueMap(parse_affine_map("(d0)[s0] -> (s0 - d0)"), (iv, n))
    lower = ValueMap(parse_affine_map("(d0) -> (d0 + 1)"), (a,))
    assert str(difference(upper, lower).map) == "(d0)[s0] -> (d0 * -3 + s0 - 1)"
    both = concat([upper, ValueMap(AffineMap.identity(1), (iv,)), upper])
    assert str(both.map) == "(d0)[s0] -> (-d0 + s0, d0)" and both.operands == (iv, n)


LOOPS = """
func.func @f(%N: index, %M: index) {
  affine.for %i = 0 to 10 step 3 {
  }
  affine.for %i = %M to %N step 2 {
  }
  affine.for %i = 0 to min affine_map<()[s0] -> (s0 * 4, 12)>()[%N] {
  }
  affine.for %i = 0 to min affine_map<() -> (10, 12)>() {
  }
  affine.for %i = max affine_map<()[s0] -> (s0, 0)>()[%N] to 10 {
  }
  affine.for %i = 7 to 3 {
  }
  return
}
"""


def test_trip_counts() -> None:
    stepped, symbolic, minimum, constant_min, maximum, empty = loops(affine.parse(LOOPS))
    assert constant_trip_count(stepped) == 4
    counts = trip_count(symbolic)
    assert counts is not None and str(counts.map) == "()[s0, s1] -> ((s0 - s1) ceildiv 2)"
    assert constant_trip_count(symbolic) is None and largest_divisor_of_trip_count(symbolic) == 1
    assert str(trip_count(minimum).map) == "()[s0] -> (s0 * 4, 12)"  # type: ignore[union-attr]
    assert largest_divisor_of_trip_count(minimum) == 4
    assert constant_trip_count(constant_min) == 10
    assert largest_divisor_of_trip_count(constant_min) == 2
    assert trip_count(maximum) is None and largest_divisor_of_trip_count(maximum) == 1
    assert constant_trip_count(empty) == 0 and largest_divisor_of_trip_count(empty) == 2**64 - 1


def test_map_slots_round_trip_and_keep_other_operands() -> None:
    module = affine.parse(
        """
        func.func @f(%A: memref<100xf32>, %N: index) -> f32 {
          %z = arith.constant 0.0 : f32
          %r = affine.for %i = %N to 100 iter_args(%acc = %z) -> f32 {
            %v = affine.load %A[%i + 1] : memref<100xf32>
            affine.store %v, %A[%i] : memref<100xf32>
            affine.yield %v : f32
          }
          return %r : f32
        }
        """
    )
    loop = loops(module)[0]
    f = ForOp(loop)
    iv, store = f.induction_var, f.body.operations[1]
    assert map_operand_positions(store) == {2}
    lower, upper = map_slots(loop)
    new_lower = MapSlot(lower.name, parse_affine_map("(d0, d1) -> (d0, d1)"), (iv, iv))
    set_map_slots(loop, [new_lower, upper])
    assert map_operand_positions(loop) == {0, 1}
    assert f.lower_bound_operands == [iv, iv] and f.inits[0].owner_op.name == "arith.constant"
    assert loop.properties["operandSegmentSizes"].values == (2, 0, 1)  # type: ignore[attr-defined]


def test_read_back_form() -> None:
    e = dim(1) + ((dim(0) * 3).floordiv(2) + 3)
    m = AffineMap.get(2, 0, [e.mod(3)])
    assert str(m) == "(d0, d1) -> ((d1 + (d0 * 3) floordiv 2 + 3) mod 3)"
    assert str(as_read_back(m)) == "(d0, d1) -> ((d1 + (d0 * 3) floordiv 2) mod 3)"
    assert as_read_back(as_read_back(m)) is as_read_back(m)
