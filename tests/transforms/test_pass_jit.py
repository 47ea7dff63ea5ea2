"""Pass outputs under the MLIR JIT: every corpus kernel, transformed by each pass, run by
mlir-runner 22 on the deterministic inputs, gives the checksums the original gives in our
interpreter (slow: one mlir-runner process per kernel and pass)."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from test_passes import run_pass

import affine
from affine.exec.inputs import checksums, deterministic_inputs, resolve_function
from affine.exec.mlir_runner import run_mlir_runner
from affine.exec.running import run

KERNELS = sorted(p for p in (CORPUS / "kernels").glob("*.mlir") if p.stem != "dma_tiles")
PASSES = [
    ("affine-loop-tile", ""),
    ("affine-loop-tile", "tile-sizes=4,3"),
    ("test-loop-permutation", "permutation-map=1,0"),
    ("affine-loop-interchange", ""),
    ("affine-loop-unroll-jam", "unroll-jam-factor=2"),
    ("affine-loop-unroll", "unroll-factor=3"),
    ("affine-parallelize", "parallel-reductions"),
]


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))


@pytest.mark.slow
@pytest.mark.mlir
@pytest.mark.parametrize("config", PASSES, ids=lambda c: f"{c[0]}{{{c[1]}}}")
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_transformed_kernel_under_the_jit(path, config, mlir_opt: str, mlir_runner: str) -> None:
    original = resolve_function(affine.parse(path.read_text(), str(path)))
    transformed, _ = run_pass(affine.parse(path.read_text(), str(path)), *config)
    arrays = deterministic_inputs(original)
    run(original, *arrays, backend="interp")
    expected = [checksums(a) for a in arrays]
    result = run_mlir_runner(resolve_function(transformed), mlir_opt, mlir_runner)
    for (e_sum, e_weighted), (sum_, weighted) in zip(expected, result.checksums):
        assert _close(e_sum, sum_) and _close(e_weighted, weighted), (
            config,
            expected,
            result.checksums,
        )
