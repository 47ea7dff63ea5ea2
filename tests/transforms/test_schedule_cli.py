"""poly-opt --print-schedule and --affine-schedule: printed schedules (golden), the printed
schedule applied back, illegal schedules as errors at the access (exit 1, nothing written),
every corpus file printed or refused with a diagnostic."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS

from transforms.cli import main

COPY = """\
func.func @copy(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i, %j] : memref<8x8xf32>
      affine.store %v, %B[%j, %i] : memref<8x8xf32>
    }
  }
  return
}
func.func @shift(%A: memref<8xf32>) {
  affine.for %i = 1 to 8 {
    %v = affine.load %A[%i - 1] : memref<8xf32>
    affine.store %v, %A[%i] : memref<8xf32>
  }
  return
}
"""


def poly_opt(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "transforms.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    path = tmp_path / "copy.mlir"
    path.write_text(COPY)
    return path


def test_print_schedule(copy: Path) -> None:
    result = poly_opt(str(copy), "--print-schedule")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "// @copy\n{ S0[i, j] -> [0, i, 0, j, 0] }\n// @shift\n{ S0[i] -> [0, i, 0] }\n"
    )


def test_print_schedule_tree(copy: Path) -> None:
    result = poly_opt(str(copy), "--print-schedule=tree")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "// @copy\n"
        'domain: "{ S0[i, j] : 0 <= i <= 7 and 0 <= j <= 7 }"\n'
        "child:\n"
        '  schedule: "[{ S0[i, j] -> [(i)] }]"\n'
        "  child:\n"
        '    schedule: "[{ S0[i, j] -> [(j)] }]"\n'
        "// @shift\n"
        'domain: "{ S0[i] : 0 < i <= 7 }"\n'
        "child:\n"
        '  schedule: "[{ S0[i] -> [(i)] }]"\n'
    )


@pytest.mark.parametrize(("form", "options"), [("", ""), ("=tree", " value-based separate")])
def test_printed_schedules_applied_give_the_source(tmp_path: Path, form: str, options: str) -> None:
    source = CORPUS / "kernels" / "jacobi_2d.mlir"
    schedules = tmp_path / "jacobi.schedule"
    printed = poly_opt(str(source), f"--print-schedule{form}")
    assert printed.returncode == 0, printed.stderr
    schedules.write_text(printed.stdout)
    applied = poly_opt(str(source), f"--affine-schedule=file={schedules}{options}")
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout == poly_opt(str(source)).stdout


def test_inline_schedule_for_one_function(copy: Path) -> None:
    result = poly_opt(str(copy), "--affine-schedule=schedule='{ S0[i, j] -> [j, i] }' func=copy")
    assert result.returncode == 0, result.stderr
    assert "%0 = affine.load %arg0[%arg3, %arg2] : memref<8x8xf32>" in result.stdout
    piped = poly_opt(
        str(copy),
        "--pass-pipeline=builtin.module(affine-schedule{schedule='{ S0[i, j] -> [j, i] }' "
        "func=copy})",
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == result.stdout


def test_an_illegal_schedule_is_an_error_and_nothing_is_written(copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    out.write_text("kept")
    result = poly_opt(
        str(copy), "--affine-schedule=schedule='{ S0[i] -> [-i] }' func=shift", "-o", str(out)
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert out.read_text() == "kept"
    assert result.stderr == (
        f"{copy}:12:10: error: illegal schedule for @shift: the RAW dependence from S0 "
        f"(affine.store %v, %A[%i] at {copy}:13:5) to S0 (affine.load %A[%i - 1] at "
        f"{copy}:12:10) is reversed (S0[i = 1] and S0[i = 2], distance (-1) on c0)\n"
        "    %v = affine.load %A[%i - 1] : memref<8xf32>\n"
        "         ^\n"
    )
    on_stdout = poly_opt(str(copy), "--affine-schedule=schedule='{ S0[i] -> [-i] }' func=shift")
    assert on_stdout.returncode == 1 and on_stdout.stdout == ""


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--affine-schedule", "--affine-schedule needs one of file=PATH or schedule='...'"),
        (
            "--affine-schedule=schedule='{ S0[i] -> [-i] }'",
            "the module has 2 functions with a body (@copy, @shift): name one (func=NAME)",
        ),
        (
            "--affine-schedule=file=/no/such/file",
            "cannot read schedule file '/no/such/file': No such file or directory",
        ),
    ],
)
def test_option_errors(copy: Path, option: str, message: str) -> None:
    result = poly_opt(str(copy), option)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == f"{copy}:1:1: error: {message}"


def test_a_function_without_a_schedule_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "ret.mlir"
    path.write_text(
        "func.func @f(%A: memref<8xf32>) -> f32 {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %v = affine.load %A[%c0] : memref<8xf32>\n"
        "  return %v : f32\n"
        "}\n"
    )
    result = poly_opt(str(path), "--print-schedule")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        f"{path}:4:3: error: no schedule for @f: %v defined at {path}:3:8 is used here, "
        "outside the statement that computes it: values that cross statements cannot be "
        "rescheduled"
    )


def test_memref_layouts_whose_symbols_share_a_value() -> None:
    # %E = alloc()[%M, %N, %M, %N] binds two layout symbols each to %M and %N: two parameters
    path = CORPUS / "seed" / "memref_composition.mlir"
    result = poly_opt(str(path), "--print-schedule")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "// @memrefs\n[M, N] -> { S0[] -> [0]; S1[] -> [1] }\n"


@pytest.mark.parametrize("form", ["", "=tree"])
def test_every_corpus_file_is_printed_or_refused_with_a_reason(form: str) -> None:
    # in process: a crash would be an 'internal error' (exit 3) instead of a diagnostic
    outcomes: dict[int, int] = {0: 0, 1: 0}
    for path in sorted(CORPUS.rglob("*.mlir")):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main([str(path), f"--print-schedule{form}"])
        diagnostic = re.compile(rf"{re.escape(str(path))}:\d+:\d+: error: \S")
        if status == 0:
            printed = out.getvalue()
            assert err.getvalue() == "" and (printed == "" or printed.startswith("// @")), path
        else:
            assert status == 1, f"{path}: exit {status}: {err.getvalue()}"
            assert diagnostic.match(err.getvalue()), f"{path}: {err.getvalue()}"
        outcomes[status] += 1
    invalid = sum(1 for p in CORPUS.rglob("*.mlir") if "invalid" in p.parts[-2])
    assert outcomes[0] >= 120 and outcomes[1] <= invalid + 20, outcomes
