"""Unrolling edge cases, checked by running original and result on the same inputs.

Loops whose bounds are symbols, run with bounds that give a positive, zero and negative
span: a trip count ``ceildiv(hi - lo, step)`` is negative when ``hi < lo``; the loop then runs no
iteration. The main loop (``lo`` to ``lo + (t - t mod f) * step``) is empty then too, and
the cleanup loop must start at ``max(lo, ...)`` or it would run iterations below ``lo``."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
from affine import parse
from affine.exec.equivalence import check_equivalent

KERNEL = """
func.func @shift(%A: memref<24x6xf32>, %lo: index, %hi: index) {
  %one = arith.constant 1.0 : f32
  affine.for %i = %lo to %hi {
    affine.for %j = 0 to 6 {
      %v = affine.load %A[%i + 8, %j] : memref<24x6xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %A[%i + 8, %j] : memref<24x6xf32>
    }
  }
  return
}
"""

# (lo, hi): spans 7 (not a multiple of the factors), 8, 0, -1 and -7.
BOUNDS = [(0, 7), (-3, 5), (4, 4), (4, 3), (6, -1)]
REWRITES = {
    "unroll by 4": lambda m: transforms.unroll(m, 4),
    "unroll by 3": lambda m: transforms.unroll(m, 3),
    "unroll-and-jam by 2": lambda m: transforms.unroll_and_jam(m, 2),
    "unroll-and-jam by 3": lambda m: transforms.unroll_and_jam(m, 3),
}


@pytest.mark.parametrize("rewrite", sorted(REWRITES))
@pytest.mark.parametrize(("lo", "hi"), BOUNDS)
def test_symbolic_bounds_keep_results(rewrite: str, lo: int, hi: int) -> None:
    module = parse(KERNEL)
    result = REWRITES[rewrite](module)
    assert not result.remarks, result.remarks
    data = np.arange(24 * 6, dtype=np.float32).reshape(24, 6)
    outcome = check_equivalent(module, result.module, data, lo, hi)
    assert outcome, outcome


# Loops that run once and yield their own block arguments: after promotion a yielded
# iter_arg is its init value and a yielded induction variable is its lower bound
# (results (1, 2, 3) and (0, 2)).
SINGLE_ITERATION = """
func.func @swap_once(%A: memref<2xindex>) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r:3 = affine.for %i = 3 to 4 iter_args(%a = %c2, %b = %c0, %c = %c1) -> (index, index, index) {
    affine.yield %c1, %a, %i : index, index, index
  }
  %s:2 = affine.for %i = 0 to 2 step 3 iter_args(%a = %c2, %b = %c0) -> (index, index) {
    affine.yield %b, %a : index, index
  }
  affine.store %s#0, %A[0] : memref<2xindex>
  affine.store %s#1, %A[1] : memref<2xindex>
  return %r#0, %r#1, %r#2 : index, index, index
}
"""


def test_full_unroll_of_single_iterations_yielding_block_arguments() -> None:
    module = parse(SINGLE_ITERATION)
    result = transforms.unroll(module, -1)
    assert "affine.for" not in str(result.module)
    outcome = check_equivalent(module, result.module, np.zeros(2, dtype=np.int64))
    assert outcome, outcome
