"""The comparison of rewritten modules by meaning (transform_helpers.assert_same_by_meaning)
finds what differs and nothing else."""

from __future__ import annotations

import pytest
from transform_helpers import assert_same_by_meaning

import affine

MAIN_AND_CLEANUP = """
func.func @f(%A: memref<100xf32>, %lo: index, %hi: index) {{
  affine.for %i = %lo to affine_map<()[s0, s1] -> (s0 + ((s1 - s0) floordiv 2) * 2)>()[%lo, %hi] step 2 {{
    %v = affine.load %A[{subscript}] : memref<100xf32>
  }}
  affine.for %i = {cleanup}()[%lo, %hi] to %hi {{
    %v = affine.load %A[%i] : memref<100xf32>
  }}
  return
}}
"""
START = "s0 + ((s1 - s0) floordiv 2) * 2"


def module(subscript: str = "%i", cleanup: str = f"affine_map<()[s0, s1] -> ({START})>"):
    return affine.parse(MAIN_AND_CLEANUP.format(subscript=subscript, cleanup=cleanup))


def test_maps_are_compared_as_functions() -> None:
    assert_same_by_meaning(module("%i * 3 - %i * 2"), module("%i"))
    with pytest.raises(AssertionError, match="is not"):
        assert_same_by_meaning(module("%i + 1"), module("%i"))


def test_a_cleanup_loop_may_start_at_the_max_with_the_main_loops_lower_bound() -> None:
    ours = module(cleanup=f"max affine_map<()[s0, s1] -> (s0, {START})>")
    assert_same_by_meaning(ours, module(), cleanup_max=True)
    with pytest.raises(AssertionError, match="lowerBoundMap"):
        assert_same_by_meaning(ours, module())
    wrong_start = module(cleanup=f"max affine_map<()[s0, s1] -> (s1, {START})>")
    with pytest.raises(AssertionError, match="lowerBoundMap"):
        assert_same_by_meaning(wrong_start, module(), cleanup_max=True)
    wrong_rest = module(cleanup=f"max affine_map<()[s0, s1] -> (s0, {START} + 2)>")
    with pytest.raises(AssertionError, match="lowerBoundMap"):
        assert_same_by_meaning(wrong_rest, module(), cleanup_max=True)


def test_operands_must_correspond() -> None:
    # the same function of its operands, applied to them in another order
    ours = module(cleanup="affine_map<()[s0, s1] -> (s0 * 2 + s1)>")
    swapped = MAIN_AND_CLEANUP.format(
        subscript="%i", cleanup="affine_map<()[s0, s1] -> (s0 * 2 + s1)>"
    ).replace("()[%lo, %hi] to %hi", "()[%hi, %lo] to %hi")
    with pytest.raises(AssertionError, match=r"affine\.for"):
        assert_same_by_meaning(ours, affine.parse(swapped))
