"""The interpreter and the C backend agree with MLIR's own JIT (mlir-opt 22 lowering +
mlir-runner) on the corpus and on random nests: same deterministic inputs, same checksums."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from nestgen import Nest, nests

import affine
from affine.execute import (
    ExecutionError,
    checksums,
    deterministic_inputs,
    mlir_harness,
    resolve_function,
    run,
    run_mlir_runner,
)

KERNELS = Path(__file__).resolve().parents[1] / "corpus" / "kernels"
QUICK = {"gemm", "tiled_layout", "int_mix", "parallel_reduce", "strided_layout"}
RUNNABLE = sorted(p.stem for p in KERNELS.glob("*.mlir") if p.stem != "dma_tiles")


def _close(a: float, b: float, rtol: float) -> bool:
    return abs(a - b) <= rtol * max(1.0, abs(a), abs(b))


def _agree(func, mlir_opt: str, mlir_runner: str) -> None:
    result = run_mlir_runner(func, mlir_opt, mlir_runner, repeats=1)
    for backend, rtol in (("interp", 1e-12), ("c", 1e-6)):
        arrays = deterministic_inputs(func)
        run(func, *arrays, backend=backend)
        for a, (ours, theirs) in enumerate(zip((checksums(x) for x in arrays), result.checksums)):
            assert _close(ours[0], theirs[0], rtol) and _close(ours[1], theirs[1], rtol), (
                backend,
                a,
                ours,
                theirs,
            )
    assert len(result.times) == 1 and result.times[0] >= 0


@pytest.mark.parametrize(
    "name", [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in RUNNABLE]
)
def test_corpus_kernel_agrees_with_mlir_runner(name: str, mlir_opt: str, mlir_runner: str) -> None:
    path = KERNELS / f"{name}.mlir"
    _agree(resolve_function(affine.parse(path.read_text(), str(path))), mlir_opt, mlir_runner)


def test_dma_kernels_are_refused_with_the_reason() -> None:
    path = KERNELS / "dma_tiles.mlir"
    func = resolve_function(affine.parse(path.read_text(), str(path)))
    with pytest.raises(ExecutionError, match="MLIR 22 has no LLVM lowering for DMA ops"):
        mlir_harness(func)


def test_harness_times_every_repeat(mlir_opt: str, mlir_runner: str) -> None:
    path = KERNELS / "jacobi_1d.mlir"
    func = resolve_function(affine.parse(path.read_text(), str(path)))
    assert len(run_mlir_runner(func, mlir_opt, mlir_runner, repeats=3).times) == 3


@pytest.mark.slow
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(nest=nests())
def test_random_nests_agree_with_mlir_runner(nest: Nest, mlir_opt: str, mlir_runner: str) -> None:
    _agree(resolve_function(affine.parse(nest.text)), mlir_opt, mlir_runner)
