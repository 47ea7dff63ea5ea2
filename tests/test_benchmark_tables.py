"""The benchmark scripts' tables fit the corpus: every PolyBench/C 4.2 kernel is timed by
benchmarks/auto_schedule.py, with a size for every name of its ``// scale:`` header, and
its scaled text reads as a verified module of those sizes."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import affine
from affine.exec.inputs import resolve_function, signature

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
POLYBENCH_4_2 = {
    "correlation", "covariance", "gemm", "gemver", "gesummv", "symm", "syr2k", "syrk", "trmm",
    "two_mm", "three_mm", "atax", "bicg", "doitgen", "mvt", "cholesky", "durbin", "gramschmidt",
    "lu", "ludcmp", "trisolv", "deriche", "floyd_warshall", "nussinov", "adi", "fdtd_2d",
    "heat_3d", "jacobi_1d", "jacobi_2d", "seidel_2d",
}  # fmt: skip


def load(name: str):
    """The script ``benchmarks/<name>.py`` as a module (it imports its neighbours)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(
            f"benchmark_{name}", BENCHMARKS / f"{name}.py"
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


auto_schedule = load("auto_schedule")
kernels = load("kernels")


def test_every_polybench_kernel_is_benchmarked() -> None:
    assert set(auto_schedule.POLYBENCH) == POLYBENCH_4_2
    assert POLYBENCH_4_2 <= set(kernels.SIZES)


@pytest.mark.parametrize("name", sorted(POLYBENCH_4_2))
def test_sizes_match_the_scale_header(name: str) -> None:
    text = (kernels.KERNELS / f"{name}.mlir").read_text()
    header = next(line for line in text.splitlines() if line.startswith("// scale:"))
    names = {re.match(r"[A-Z]+", item.split("=")[1]).group(0) for item in header.split()[2:]}
    bench = auto_schedule.POLYBENCH[name]
    assert set(bench.sizes) == names == set(kernels.SIZES[name])
    func = resolve_function(affine.parse(kernels.scaled_text(text, bench.sizes), name))
    shapes = {d for t in signature(func)[0] for d in t.shape}
    assert shapes <= set(bench.sizes.values())  # every array has the large sizes
    if bench.flops is not None:
        assert bench.flops(bench.sizes) > 1e8


def test_the_tuning_benchmark_times_kernels_of_the_auto_schedule_table() -> None:
    tune, auto = load("tune"), load("auto_schedule")
    assert set(tune.DEFAULT) <= set(auto.POLYBENCH)
