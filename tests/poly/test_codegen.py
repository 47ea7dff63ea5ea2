"""Loops regenerated from schedules (poly.codegen) run the same instances in the new
order: checked by running original and result, on the corpus and on random nests."""

from __future__ import annotations

import itertools

import islpy as isl
import pytest
from bandgen import perfect_bands
from conftest import CORPUS
from dep_oracle import access_multiset
from hypothesis import HealthCheck, given, settings
from nestgen import nests

import affine
from affine.dialects.verifier import verify
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from poly.codegen import CodegenError
from poly.context import isl_context
from transforms.loop_utils import regenerate_band
from transforms.permutation import check_permutation
from transforms.tiling import check_tiling

KERNELS = CORPUS / "kernels"


def bands(module: Module) -> list[list[int]]:
    """Perfect bands of depth >= 2 as walk positions of their loops."""
    ops = list(module.operation.walk())
    return [[ops.index(x) for x in band] for band in perfect_bands(module)]


def order_map(text: str) -> isl.Map:
    return isl.Map.read_from_str(isl_context(), text)


def permutation_map(order: tuple[int, ...]) -> isl.Map:
    xs = [f"x{k}" for k in range(len(order))]
    return order_map(f"{{ [{', '.join(xs)}] -> [{', '.join(xs[k] for k in order)}] }}")


def tiling_map(n: int, size: int) -> isl.Map:
    xs = [f"x{k}" for k in range(n)]
    tiles = [f"{size} * floor({x} / {size})" for x in xs]
    return order_map(f"{{ [{', '.join(xs)}] -> [{', '.join(tiles + xs)}] }}")


def transformed(module: Module, positions: list[int], new_order: isl.Map) -> Module | None:
    copy = module.clone()
    ops = list(copy.operation.walk())
    band = [ops[p] for p in positions]
    try:
        regenerate_band(band, new_order)
    except CodegenError:
        return None
    verify(copy)
    affine.parse(affine.print_module(copy))  # prints and reads back
    return copy


def check_module(module: Module) -> int:
    checked = 0
    for positions in bands(module):
        ops = list(module.operation.walk())
        band = [ops[p] for p in positions]
        n = len(band)
        candidates = []
        if check_tiling(band):
            candidates.append(tiling_map(n, 2))
        for order in itertools.permutations(range(n)):
            permutation = [order.index(k) for k in range(n)]  # new position of loop k
            if check_permutation(band, permutation):
                candidates.append(permutation_map(order))
        for new_order in candidates:
            result = transformed(module, positions, new_order)
            if result is None:
                continue
            for f, g in zip(module.functions(), result.functions()):
                outcome = check_equivalent(f, g, backend="interp")
                assert outcome, (str(new_order), affine.print_module(result), outcome)
            # every iteration runs exactly once (results alone may not show a repeat)
            assert access_multiset(result) == access_multiset(module), str(new_order)
            checked += 1
    return checked


@pytest.mark.parametrize("name", ["syrk", "lu", "trmm", "gemm", "two_mm", "jacobi_2d", "mvt"])
def test_corpus_kernels(name: str) -> None:
    module = affine.parse((KERNELS / f"{name}.mlir").read_text(), f"{name}.mlir")
    assert check_module(module) >= 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_nests(nest) -> None:
    check_module(affine.parse(nest.text, "nest.mlir"))


def test_skewed_loops_are_readable() -> None:
    text = """
func.func @f(%A: memref<10x10xf32>) {
  affine.for %i = 1 to 10 {
    affine.for %j = 0 to 9 {
      %v = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
      affine.store %v, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}
"""
    module = affine.parse(text)
    result = transformed(module, bands(module)[0], order_map("{ [i, j] -> [i, i + j] }"))
    assert result is not None
    printed = affine.print_module(result)
    assert "affine.for %arg2 = #map(%arg1) to #map1(%arg1)" in printed
    assert check_equivalent(module.functions()[0], result.functions()[0], backend="interp")
