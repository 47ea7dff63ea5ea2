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


@pytest.mark.parametrize("name", sorted(POLYBENCH_4_2))
def test_every_kernel_reads_in_double(name: str) -> None:
    # --type f64: the f32 corpus in PolyBench's default type; kernels written in f64 stay
    func = resolve_function(affine.parse(auto_schedule.kernel_text(name, "f64"), name))
    element_types = {str(t.element_type) for t in signature(func)[0]}
    assert "f32" not in element_types
    assert element_types & {"f64", "i32", "i64"}


def test_the_tuning_benchmark_times_kernels_of_the_auto_schedule_table() -> None:
    tune, auto = load("tune"), load("auto_schedule")
    assert set(tune.DEFAULT) <= set(auto.POLYBENCH)


fusion = load("fusion")


@pytest.mark.parametrize("name", sorted(fusion.CHAINS))
def test_fusion_chains_scale_to_their_sizes(name: str) -> None:
    chain = fusion.CHAINS[name]
    text = (fusion.CORPUS / chain.path).read_text()
    header = next(line for line in text.splitlines() if line.startswith("// scale:"))
    names = {re.match(r"[A-Z]+", item.split("=")[1]).group(0) for item in header.split()[2:]}
    assert set(chain.sizes) == names
    assert not chain.small or set(chain.small) == names
    for small in (False, True):
        resolve_function(affine.parse(chain.text(small), name))


def test_bytes_touched_sums_the_exact_footprints_of_each_nest() -> None:
    import transforms

    chain = affine.parse(fusion.CHAINS["elementwise_chain"].text(small=True), "chain")
    # two nests: A and B (24 floats each), then B, A and C
    assert fusion.bytes_touched(chain) == ((2 + 3) * 24 * 4, True)
    fused = transforms.fuse(chain).module
    # one nest: A, C and the one-element private buffer
    assert fusion.bytes_touched(fused) == ((24 + 24 + 1) * 4, True)
    assert fusion.loop_count(chain) - fusion.loop_count(fused) == 1


def test_copied_elements_counts_the_copy_statements() -> None:
    import transforms

    module = affine.parse((fusion.CORPUS / "datamove" / "copy.mlir").read_text(), "copy")
    copied = transforms.copy_data(module, generate_dma=False, fast_mem_space=1).module
    # A and B[256:512] in, O out; F is already in memory space 2 and is not copied
    assert fusion.copied_elements(resolve_function(copied, "loop_nest_1d")) == 3 * 256
    assert fusion.copied_elements(resolve_function(module, "loop_nest_1d")) == 0
    bounds = resolve_function(copied, "symbolic_loop_bounds")
    assert fusion.copied_elements(bounds) is None  # instance counts depend on %M, %N


@pytest.mark.mlir
def test_the_fusion_benchmark_runs_on_small_sizes(
    mlir_opt: str, mlir_runner: str, capsys: pytest.CaptureFixture[str]
) -> None:
    chains = "elementwise_chain,reversed_read,doitgen"
    argv = ["--small", "--rounds", "1", "--repeats", "1", "--chains", chains, "--no-copies"]
    assert fusion.main(argv) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["elementwise_chain"].endswith("%B -> memref<1xf32>")
    assert " 1/1 " in rows["elementwise_chain"]
    # (24 + 24) * 2 floats in two nests; A[0:25] and B once in mlir-opt's fused one; ours
    # declines for cost (the shifted slice puts a range guard in the hot loop)
    assert rows["reversed_read"].split()[-2:] == ["0/1!", "0.000384/0.000384/0.000196"]
    assert "WRONG" in rows["doitgen"]  # mlir-opt's fusion; ours refuses (0 loops merged)
    assert " 0/1! " in rows["doitgen"]
    assert "wrong results: ours 0, mlir-opt 2" in rows["loops"]


mlir_tests_table = load("mlir_tests_table")

SMALL_FUSION_TEST = """// RUN: mlir-opt %s -split-input-file -affine-loop-fusion | FileCheck %s

func.func @chain(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf32>
    affine.store %a, %B[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %b = affine.load %B[%i] : memref<8xf32>
    %s = arith.addf %b, %b : f32
    affine.store %s, %C[%i] : memref<8xf32>
  }
  return
}

// -----

func.func @nothing_observable() {
  %B = memref.alloc() : memref<8xf32>
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %c, %B[%i] : memref<8xf32>
  }
  return
}
"""


@pytest.mark.mlir
def test_the_mlir_tests_table_runs_chunks_through_both_tools(
    mlir_opt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "small-fusion.mlir"
    path.write_text(SMALL_FUSION_TEST)
    (run,) = mlir_tests_table.run_lines(SMALL_FUSION_TEST)
    assert run.flags == ("-affine-loop-fusion",) and run.family == "fusion"
    assert mlir_tests_table.main([str(path)]) == 0
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()}
    assert rows["small-fusion:chain"] == ["1", "1", "ok", "ok"]  # both fuse, both right
    assert rows["small-fusion:nothing_observable"] == ["0", "0", "-", "-"]
    assert rows["2"][:8] == ["functions;", "changed", "by", "ours", "1,", "by", "mlir-opt", "1;"]
