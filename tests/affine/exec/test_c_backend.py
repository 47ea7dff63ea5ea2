"""The C backend: the same semantics as the interpreter, compilation, caching, bad toolchains."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS
from exec_cases import CASES

import affine
from affine.exec.c_backend import compile_function, emit_c
from affine.exec.elements import ExecutionError
from affine.exec.equivalence import compare_arrays
from affine.exec.inputs import deterministic_inputs, resolve_function
from affine.exec.running import run, time_kernel
from affine.exec.toolchain import CompilerError, find_compiler

KERNELS = CORPUS / "kernels"


def kernel(name: str) -> affine.Module:
    path = KERNELS / f"{name}.mlir"
    return affine.parse(path.read_text(), str(path))


@pytest.mark.parametrize("name", sorted(CASES))
def test_scalar_semantics(name: str) -> None:
    case = CASES[name]
    case.check(run(affine.parse(case.text), *case.values, backend="c"))


def test_parallel_kernel_uses_openmp_and_restrict() -> None:
    source = emit_c(kernel("parallel_reduce"))
    pragmas = [line for line in source.splitlines() if line.startswith("#pragma omp parallel for")]
    assert "float *restrict a0" in source
    # the outer loop of the matrix-vector product only: the nested reduction runs inside it
    assert pragmas[0] == "#pragma omp parallel for schedule(static)"
    assert pragmas[1] == "#pragma omp parallel for schedule(static)"
    assert pragmas[2].startswith(
        "#pragma omp parallel for schedule(static) reduction(pa_maximumf_float:"
    )
    assert len(pragmas) == 3
    assert "#pragma omp declare reduction(pa_maximumf_float" in source


def test_layout_offsets_are_emitted_without_division_helpers_when_indices_are_non_negative() -> (
    None
):
    source = emit_c(kernel("tiled_layout"))
    assert "pa_floordiv(" not in source.split("int pa_entry")[0].split("static void f_")[1]
    mod_source = emit_c(kernel("mod_floordiv"))
    assert "pa_floordiv(((i" in mod_source or "pa_floordiv((i" in mod_source  # (i - 5) floordiv 4


def test_aliased_arguments_use_the_variant_without_restrict() -> None:
    text = """
func.func @shift(%A: memref<16xf32>, %B: memref<16xf32>) {
  affine.for %i = 0 to 15 {
    %v = affine.load %A[%i + 1] : memref<16xf32>
    %w = affine.load %A[%i] : memref<16xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %B[%i] : memref<16xf32>
  }
  return
}
"""
    module = affine.parse(text)
    same = np.arange(16, dtype=np.float32)
    expected = same.copy()
    run(module, expected, expected, backend="interp")
    compiled = compile_function(module)
    from affine.exec.memory import memref_from_array

    t = resolve_function(module).regions[0].blocks[0].arguments[0].type
    memref = memref_from_array(t, same)
    compiled([memref, memref])
    assert np.array_equal(same, expected)
    assert set(compiled._variants) == {True, False}
    assert (
        "restrict"
        not in compiled._variants[False][1].source.split("static void f_shift(")[1].split(")")[0]
    )


def test_division_by_zero_is_reported_with_its_location() -> None:
    text = """func.func @f(%a: i32, %b: i32) -> i32 {
  %r = arith.divsi %a, %b : i32
  return %r : i32
}
"""
    module = affine.parse(text, "div.mlir")
    assert run(module, 7, 2, backend="c") == 3
    with pytest.raises(ExecutionError) as info:
        run(module, 7, 0, backend="c")
    assert info.value.render().startswith("div.mlir:2:8: error: 'arith.divsi': division by zero")


def test_checked_mode_reports_out_of_bounds_accesses() -> None:
    text = """func.func @f(%A: memref<4xf32>, %n: index) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to %n {
    affine.store %c, %A[%i] : memref<4xf32>
  }
  return
}
"""
    module = affine.parse(text, "oob.mlir")
    A = np.zeros(4, np.float32)
    with pytest.raises(ExecutionError, match=r"oob\.mlir:4:5: error: out-of-bounds store"):
        run(module, A, 5, backend="c", checks=True)
    run(module, A, 4, backend="c", checks=True)
    assert A.tolist() == [1.0] * 4


def test_unsupported_op_is_named_with_its_location() -> None:
    text = """func.func @f(%A: memref<4xf32>) {
  %v = "vector.gather"(%A) : (memref<4xf32>) -> vector<4xf32>
  return
}
"""
    with pytest.raises(ExecutionError) as info:
        compile_function(affine.parse(text, "v.mlir"))
    assert info.value.render().startswith(
        "v.mlir:2:8: error: the C backend cannot compile 'vector.gather'"
    )


@pytest.mark.parametrize("backend", ["interp", "c"])
def test_allocating_a_layout_with_unknown_entries_is_refused(backend: str) -> None:
    text = """func.func @f() {
  %a = memref.alloc() : memref<4xf32, strided<[?]>>
  return
}
"""
    with pytest.raises(ExecutionError, match="its layout has '\\?' entries no operand gives"):
        run(affine.parse(text), backend=backend)


def test_memref_results_are_refused_clearly() -> None:
    text = """func.func @f() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}
"""
    with pytest.raises(ExecutionError, match="only returns scalars"):
        compile_function(affine.parse(text))


def test_time_kernel_reports_min_and_median() -> None:
    func = resolve_function(kernel("gemm"))
    arrays = deterministic_inputs(func)
    expected = [a.copy() for a in arrays]
    run(func, *expected, backend="interp")
    timing = time_kernel(func, *arrays, repeats=4)
    assert len(timing.times) == 4 and 0 < timing.min <= timing.median
    assert compare_arrays(expected[0], arrays[0]) is None  # one call's worth of work
    assert "over 4 runs" in str(timing)


# -- the toolchain --------------------------------------------------------------------------------------


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_libraries_are_cached_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = find_compiler().command[0]
    log = tmp_path / "calls.log"
    cc = _script(tmp_path / "logging-cc", f'echo "$@" >> {log}\nexec {real} "$@"\n')
    monkeypatch.setenv("CC", cc)
    monkeypatch.setenv("POLYAFFINE_CACHE_DIR", str(tmp_path / "cache"))
    module = kernel("jacobi_1d")

    def builds() -> int:
        return (
            sum("-shared" in line and "probe" not in line for line in log.read_text().splitlines())
            if log.exists()
            else 0
        )

    compile_function(module)
    assert builds() == 1 and len(list((tmp_path / "cache").glob("*.so"))) == 1
    compile_function(kernel("jacobi_1d"))
    assert builds() == 1  # same source and flags: cache hit
    compile_function(module, opt="-O2")
    assert builds() == 2  # other flags: another library


def test_missing_compiler_is_explained_and_the_interpreter_still_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    func = resolve_function(kernel("jacobi_1d"))
    arrays = deterministic_inputs(func)
    with pytest.raises(
        CompilerError, match=r"no C compiler found: looked for '/nonexistent/cc' \(from \$CC\)"
    ):
        run(func, *arrays, backend="c")
    run(func, *arrays, backend="interp")


def test_failing_compilation_shows_the_compiler_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cc = _script(
        tmp_path / "broken-cc",
        'for a in "$@"; do [ "$a" = --version ] && { echo "broken 1.0"; exit 0; }; done\necho "fatal: out of ideas" >&2\nexit 4\n',
    )
    monkeypatch.setenv("CC", cc)
    monkeypatch.setenv("POLYAFFINE_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(CompilerError) as info:
        compile_function(kernel("jacobi_1d"), openmp=False)
    assert "exit status 4" in str(info.value) and "fatal: out of ideas" in str(info.value)
    assert os.listdir(tmp_path / "cache")  # the source is kept for inspection
