"""``poly-opt --run`` and ``poly-opt --emit=c``: output form, agreement with the API, errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CORPUS

import affine
from affine.exec.inputs import checksums, deterministic_inputs, resolve_function
from affine.exec.running import run
from affine.exec.toolchain import build_library
from transforms.cli import main

KERNELS = CORPUS / "kernels"


def poly_opt(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("backend", ["c", "interp"])
def test_run_prints_checksums_of_written_arguments_and_the_time(
    capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    path = str(KERNELS / "atax.mlir")
    status, out, err = poly_opt(capsys, path, f"--run=entry=atax backend={backend} repeats=2")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"// poly-opt --run: @atax on deterministic inputs, backend {backend}"
    func = resolve_function(affine.parse(Path(path).read_text()))
    arrays = deterministic_inputs(func, nonzero=True)
    run(func, *arrays, backend="interp")
    expected = [
        f"@atax arg{a} {t}: sum={checksums(arrays[a])[0]:.10g} weighted={checksums(arrays[a])[1]:.10g}"
        for a, t in ((2, "memref<42xf32>"), (3, "memref<38xf32>"))
    ]
    assert lines[1:3] == expected  # y and tmp are written; A and x are only read
    assert re.fullmatch(
        r"@atax time: min [0-9.]+ (s|ms|us), median [0-9.]+ (s|ms|us) over 2 runs", lines[3]
    )


# The sum of A's deterministic inputs 1 + (7i mod 17) / 17 for i < 4 is 4 + 25/17, computed
# in f32; the i1 result prints as true, the index as given, a returned memref by its
# checksums (the interpreter returns memrefs; the C backend returns scalars only).
RETURNS = """\
func.func @f(%A: memref<4xf32>, %n: index) -> (f32, index, i1{memref_type}) {{
  %z = arith.constant 0.0 : f32
  %B = memref.alloc() : memref<4xf32>
  %s = affine.for %i = 0 to 4 iter_args(%acc = %z) -> f32 {{
    %a = affine.load %A[%i] : memref<4xf32>
    affine.store %a, %B[%i] : memref<4xf32>
    %t = arith.addf %acc, %a : f32
    affine.yield %t : f32
  }}
  %true = arith.constant true
  return %s, %n, %true{memref} : f32, index, i1{memref_type}
}}
"""


@pytest.mark.parametrize("backend", ["c", "interp"])
def test_run_prints_the_returned_values(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, backend: str
) -> None:
    with_memref = backend == "interp"
    source = RETURNS.format(
        memref=", %B" if with_memref else "", memref_type=", memref<4xf32>" if with_memref else ""
    )
    path = tmp_path / "returns.mlir"
    path.write_text(source)
    status, out, err = poly_opt(capsys, str(path), f"--run=backend={backend} sizes=n=5")
    assert status == 0, err
    lines = out.splitlines()
    label, value = lines[2].split(": ")
    assert label == "@f result0 f32" and float(value) == pytest.approx(4 + 25 / 17, rel=1e-6)
    assert lines[3:5] == ["@f result1 index: 5", "@f result2 i1: true"]
    if with_memref:  # B is a copy of A, whose checksums line 1 shows
        assert lines[1].startswith("@f arg0 memref<4xf32>: sum=")
        assert lines[5] == "@f result3 memref<4xf32>: " + lines[1].split(": ")[1]
    assert lines[-1].startswith("@f time: ")


def test_run_without_options_takes_the_only_public_function(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = poly_opt(capsys, str(KERNELS / "floyd_warshall.mlir"), "--run")
    assert status == 0 and out.splitlines()[1].startswith(
        "@floyd_warshall arg0 memref<24x24xi32>: sum="
    )
    status, short, _ = poly_opt(
        capsys, str(KERNELS / "floyd_warshall.mlir"), "--run=floyd_warshall"
    )
    assert status == 0 and short.splitlines()[1] == out.splitlines()[1]


def test_emit_c_prints_compilable_c(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = poly_opt(capsys, str(KERNELS / "tiled_layout.mlir"), "--emit=c")
    assert status == 0
    assert (
        "static void f_tiled_layout(float *restrict a0, float *restrict a1, float *restrict a2)"
        in out
    )
    assert "int pa_entry_tiled_layout(void **args)" in out
    assert build_library(out).exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--run=nope"], r"^[^ ]*gemm\.mlir: error: no function named @nope in the module$"),
        (
            ["--run=backend=fortran"],
            r"error: for the --backend option of --run: 'fortran' value invalid; "
            r"expected one of c, interp$",
        ),
        (
            ["--run=repeats=x"],
            r"error: for the --repeats option of --run: 'x' value invalid; expected an integer >= 1$",
        ),
        (
            ["--run=repeats=0"],
            r"error: for the --repeats option of --run: '0' value invalid; expected an integer >= 1$",
        ),
        (["--run=threads=4"], r"error: no such option 'threads' for pass 'run'"),
        (["--emit=json"], r"error: unknown output format '--emit=json' \(known: c\)"),
    ],
)
def test_bad_options_are_reported(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = poly_opt(capsys, str(KERNELS / "gemm.mlir"), *argv)
    assert status == 1 and out == "" and re.search(message, err.strip(), re.M), err
    assert "Traceback" not in err


def test_errors_while_running_point_at_the_op(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "oob.mlir"
    source.write_text("""func.func @k(%A: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 5 {
    affine.store %c, %A[%i] : memref<4xf32>
  }
  return
}
""")
    status, _, err = poly_opt(capsys, str(source), "--run=backend=interp")
    assert status == 1 and err.startswith(f"{source}:4:5: error: out-of-bounds store: index [4]")
    source.write_text(
        source.read_text()
        .replace("affine.store %c, %A[%i]", "affine.vector_store %v, %A[%i]")
        .replace("%c = arith.constant 1.0 : f32", "%v = arith.constant dense<1.0> : vector<1xf32>")
        .replace(": memref<4xf32>\n  }", ": memref<4xf32>, vector<1xf32>\n  }")
    )
    status, _, err = poly_opt(capsys, str(source), "--run=backend=interp")
    assert status == 1 and err.startswith(f"{source}:4:5: error: out-of-bounds store: index [4]")


def test_several_public_functions_need_an_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "two.mlir"
    source.write_text(
        "func.func @a(%x: memref<2xf32>) {\n  return\n}\nfunc.func @b(%x: memref<2xf32>) {\n  return\n}\n"
    )
    status, _, err = poly_opt(capsys, str(source), "--run")
    assert status == 1 and "choose the function to run (public functions: @a, @b)" in err
    status, out, _ = poly_opt(capsys, str(source), "--run=b")
    assert status == 0 and out.splitlines()[1].startswith("@b arg0 memref<2xf32>: sum=")


def test_missing_compiler_is_an_error_and_the_interpreter_still_runs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    path = str(KERNELS / "jacobi_1d.mlir")
    status, _, err = poly_opt(capsys, path, "--run")
    assert status == 1 and "error: no C compiler found" in err
    status, out, _ = poly_opt(capsys, path, "--run=backend=interp repeats=1")
    assert status == 0 and "@jacobi_1d arg0" in out


def test_help_documents_the_actions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = poly_opt(capsys, "--help")
    assert status == 0
    assert re.search(r"--emit +Print C99 .*\(--emit=c\)", out)
    assert re.search(
        r"--run +Run a function; .*entry=NAME backend=c\|interp repeats=N timeout=SECONDS "
        r"sizes=A=40x30,n=100 .* inputs=A=a.npy save=DIR \[overwrite\]",
        out,
    )
