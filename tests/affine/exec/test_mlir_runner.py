"""The interpreter and the C backend agree with MLIR's own JIT (mlir-opt 22 lowering +
mlir-runner) on the corpus and on random nests: same deterministic inputs, same checksums."""

from __future__ import annotations

import math
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS
from exec_cases import CASES
from hypothesis import HealthCheck, given, settings
from nestgen import Nest, nests

import affine
from affine.exec.elements import ExecutionError
from affine.exec.inputs import checksums, deterministic_inputs, resolve_function
from affine.exec.mlir_runner import MLIR_LOWERING, mlir_harness, run_mlir_runner
from affine.exec.running import run

KERNELS = CORPUS / "kernels"
QUICK = {
    "gemm", "tiled_layout", "int_mix", "parallel_reduce", "strided_layout", "bf16_matvec",
    "vector_gemm", "vector_ops", "vector_reductions",
}  # fmt: skip
RUNNABLE = sorted(p.stem for p in KERNELS.glob("*.mlir") if p.stem != "dma_tiles")


def _close(a: float, b: float, rtol: float) -> bool:
    return abs(a - b) <= rtol * max(1.0, abs(a), abs(b))


def _agree(func, mlir_opt: str, mlir_runner: str) -> None:
    result = run_mlir_runner(func, mlir_opt, mlir_runner, repeats=1)
    for backend, rtol in (("interp", 1e-12), ("c", 1e-6)):
        arrays = deterministic_inputs(func)
        returned = run(func, *arrays, backend=backend)
        values = (
            () if returned is None else returned if isinstance(returned, tuple) else (returned,)
        )
        ours_all = [checksums(x) for x in arrays] + [(float(v), float(v)) for v in values]
        assert len(ours_all) == len(result.checksums), (ours_all, result.checksums)
        for a, (ours, theirs) in enumerate(zip(ours_all, result.checksums)):
            assert _close(ours[0], theirs[0], rtol) and _close(ours[1], theirs[1], rtol), (
                backend,
                a,
                ours,
                theirs,
            )
    assert len(result.times) == 1 and result.times[0] >= 0


@pytest.mark.mlir
@pytest.mark.parametrize(
    "name", [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in RUNNABLE]
)
def test_corpus_kernel_agrees_with_mlir_runner(name: str, mlir_opt: str, mlir_runner: str) -> None:
    path = KERNELS / f"{name}.mlir"
    _agree(resolve_function(affine.parse(path.read_text(), str(path))), mlir_opt, mlir_runner)


SCALAR_RESULTS = """
func.func @dot(%x: memref<40xf32>, %y: memref<40xf32>) -> (f32, i32, index) {
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %r:3 = affine.for %i = 0 to 40 iter_args(%s = %z, %n = %zi, %at = %c0) -> (f32, i32, index) {
    %a = affine.load %x[%i] : memref<40xf32>
    %b = affine.load %y[%i] : memref<40xf32>
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %s, %p : f32
    %big = arith.cmpf ogt, %p, %z : f32
    %one = arith.extui %big : i1 to i32
    %m = arith.addi %n, %one : i32
    %w = arith.select %big, %i, %at : index
    affine.yield %t, %m, %w : f32, i32, index
  }
  return %r#0, %r#1, %r#2 : f32, i32, index
}
"""


@pytest.mark.mlir
def test_scalar_results_are_kept_and_agree(mlir_opt: str, mlir_runner: str) -> None:
    # a dot product, a count and an index returned: each stored by every call into a 0-d
    # memref whose checksum follows the arguments'
    func = resolve_function(affine.parse(SCALAR_RESULTS, "dot.mlir"))
    assert len(run_mlir_runner(func, mlir_opt, mlir_runner).checksums) == 2 + 3
    _agree(func, mlir_opt, mlir_runner)


def test_results_other_than_scalars_are_refused() -> None:
    text = "func.func @f() -> vector<4xf32> {\n  %v = arith.constant dense<1.0> : vector<4xf32>\n  return %v : vector<4xf32>\n}\n"
    with pytest.raises(ExecutionError, match="result #0 of @f has type 'vector<4xf32>'"):
        mlir_harness(resolve_function(affine.parse(text, "f.mlir")))


def test_dma_kernels_are_refused_with_the_reason() -> None:
    path = KERNELS / "dma_tiles.mlir"
    func = resolve_function(affine.parse(path.read_text(), str(path)))
    with pytest.raises(ExecutionError, match="MLIR 22 has no LLVM lowering for DMA ops"):
        mlir_harness(func)


def test_a_tool_that_runs_past_the_time_limit_is_an_execution_error(tmp_path: Path) -> None:
    # a stand-in for mlir-opt that never answers: an error naming the tool, no traceback
    hang = tmp_path / "mlir-opt"
    hang.write_text("#!/bin/sh\nexec sleep 30\n")
    hang.chmod(0o755)
    path = KERNELS / "jacobi_1d.mlir"
    func = resolve_function(affine.parse(path.read_text(), str(path)))
    with pytest.raises(ExecutionError, match=r"mlir-opt on @jacobi_1d ran past the 0.5 s time"):
        run_mlir_runner(func, str(hang), str(hang), timeout=0.5)


@pytest.mark.mlir
def test_harness_times_every_repeat(mlir_opt: str, mlir_runner: str) -> None:
    path = KERNELS / "jacobi_1d.mlir"
    func = resolve_function(affine.parse(path.read_text(), str(path)))
    assert len(run_mlir_runner(func, mlir_opt, mlir_runner, repeats=3).times) == 3


@pytest.mark.mlir
@pytest.mark.slow
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(nest=nests())
def test_random_nests_agree_with_mlir_runner(nest: Nest, mlir_opt: str, mlir_runner: str) -> None:
    _agree(resolve_function(affine.parse(nest.text)), mlir_opt, mlir_runner)


# Cases whose result LLVM leaves undefined (poison or undefined behaviour), and ops the
# lowering pipeline of MLIR 22 cannot lower.
NOT_LOWERED = {"isinf"}
UNDEFINED_IN_LLVM = {
    "shli_too_far",
    "divsi_min_by_minus_one",
    "fptosi_saturates",
    "fptosi_nan",
    "fptoui_negative",
}


def _mlir_constant(name: str, t: str, value: object) -> str:
    if t.startswith("f"):
        width = {"f16": 16, "f32": 32, "f64": 64}[t]
        dtype = {16: np.float16, 32: np.float32, 64: np.float64}[width]
        bits = (
            np.array(value, dtype=dtype)
            .view({16: np.uint16, 32: np.uint32, 64: np.uint64}[width])
            .item()
        )
        return f"{name} = arith.constant 0x{bits:0{width // 4}X} : {t}"
    if t == "i1":
        return f"{name} = arith.constant {'true' if value else 'false'}"
    return f"{name} = arith.constant {int(value)} : {t}"  # type: ignore[call-overload]


@pytest.mark.mlir
def test_scalar_semantics_agree_with_the_mlir_jit(mlir_opt: str, mlir_runner: str) -> None:
    names = sorted(n for n in CASES if n not in UNDEFINED_IN_LLVM | NOT_LOWERED)
    functions, main = [], ["func.func @main() {"]
    for k, name in enumerate(names):
        case = CASES[name]
        text = case.text.replace("func.func @f(", f"func.func @case{k}(", 1)
        functions.append(
            text.replace(") -> ", ") -> ", 1).replace(
                "{\n", 'attributes {passthrough = ["noinline"]} {\n', 1
            )
        )
        args = []
        for j, (t, value) in enumerate(case.args):
            main.append("  " + _mlir_constant(f"%a{k}_{j}", t, value))
            args.append(f"%a{k}_{j}")
        types = ", ".join(t for t, _ in case.args)
        main.append(f"  %r{k} = func.call @case{k}({', '.join(args)}) : ({types}) -> {case.result}")
        r = f"%r{k}"
        if case.result.startswith("f"):
            if case.result != "f64":
                main.append(f"  %x{k} = arith.extf {r} : {case.result} to f64")
                r = f"%x{k}"
            main.append(f"  %p{k} = arith.bitcast {r} : f64 to i64")
        elif case.result == "index":
            main.append(f"  %p{k} = arith.index_cast {r} : index to i64")
        elif case.result == "i64":
            main.append(f"  %p{k} = arith.addi {r}, %zero : i64")
        else:
            op = "extui" if case.result == "i1" else "extsi"
            main.append(f"  %p{k} = arith.{op} {r} : {case.result} to i64")
        main.append(f"  vector.print %p{k} : i64")
    main.insert(1, "  %zero = arith.constant 0 : i64")
    main += ["  return", "}"]
    module = "\n".join(functions) + "\n".join(main) + "\n"
    lowered = subprocess.run(
        [mlir_opt, *MLIR_LOWERING, "-"], input=module, capture_output=True, text=True, timeout=300
    )
    assert lowered.returncode == 0, lowered.stderr
    libdir = Path(mlir_runner).resolve().parents[1] / "lib"
    library = sorted(libdir.glob("libmlir_c_runner_utils.so*"))[0]
    ran = subprocess.run(
        [mlir_runner, "-e", "main", "-entry-point-result=void", f"-shared-libs={library}"],
        input=lowered.stdout,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    printed = [int(line) for line in ran.stdout.split()]
    assert len(printed) == len(names)
    for name, bits in zip(names, printed):
        case = CASES[name]
        if case.result.startswith("f"):
            got: object = struct.unpack("<d", struct.pack("<q", bits))[0]
            expected = float(case.expected)
            if math.isnan(expected):
                assert math.isnan(got), name  # type: ignore[arg-type]
                continue
            if case.exact:
                assert got == expected and math.copysign(1, got) == math.copysign(1, expected), (
                    name,
                    got,
                )  # type: ignore[arg-type]
            else:
                assert abs(got - expected) <= 4 * abs(
                    np.spacing(
                        np.asarray(
                            expected,
                            dtype={"f16": np.float16, "f32": np.float32, "f64": np.float64}[
                                case.result
                            ],
                        )
                    )
                ), (name, got)  # type: ignore[operator]
        elif case.result == "i1":
            assert bits == int(case.expected), name
        else:
            assert bits == case.expected, (name, bits)
