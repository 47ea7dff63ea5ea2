"""poly-opt as a drop-in for mlir-opt: input from a file or stdin, -o, split input, generic form."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_mlir_opt
from filecheck import filecheck

from transforms.cli import main

TWO_CHUNKS = """\
func.func @a() {
  return
}
// -----
func.func @b(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
"""

BAD_SECOND_CHUNK = TWO_CHUNKS.replace("%x, %x", "%x, %y")


def poly_opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "transforms.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_reads_standard_input() -> None:
    result = poly_opt("-", stdin="func.func @f() {\n  return\n}\n")
    assert result.returncode == 0, result.stderr
    filecheck(
        result.stdout, "// CHECK: module {\n// CHECK-NEXT: func.func @f() {\n// CHECK-NEXT: return"
    )


def test_split_input_file_prints_each_chunk(tmp_path: Path) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(TWO_CHUNKS)
    result = poly_opt("--split-input-file", str(path))
    assert result.returncode == 0, result.stderr
    filecheck(
        result.stdout,
        "// CHECK: func.func @a()\n// CHECK: // -----\n// CHECK-NEXT: module {\n"
        "// CHECK-NEXT: func.func @b([[X:%arg0]]: i32)\n// CHECK-NEXT: arith.addi [[X]], [[X]]",
    )


def test_split_input_file_reports_the_real_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(BAD_SECOND_CHUNK)
    result = poly_opt("--split-input-file", str(path))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:6:23: error: use of undeclared SSA value name")
    assert "func.func @a()" in result.stdout  # the good chunk is still printed


@pytest.mark.mlir
def test_split_output_is_mlir_opts(mlir_opt: str, tmp_path: Path) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(TWO_CHUNKS)
    ours = poly_opt("--split-input-file", str(path))
    theirs = run_mlir_opt(mlir_opt, TWO_CHUNKS, "--split-input-file")
    assert ours.stdout == theirs.stdout


def test_generic_form_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(TWO_CHUNKS.split("// -----")[1])
    generic = poly_opt("--mlir-print-op-generic", str(path))
    assert generic.returncode == 0, generic.stderr
    filecheck(
        generic.stdout, '// CHECK: "builtin.module"() ({\n// CHECK: "arith.addi"(%arg0, %arg0)'
    )
    again = poly_opt("-", stdin=generic.stdout)
    assert again.stdout == poly_opt(str(path)).stdout


def test_output_file_and_unregistered_dialect_flag(tmp_path: Path) -> None:
    source = tmp_path / "in.mlir"
    source.write_text('"flow.dispatch"() ({\n  "flow.return"() : () -> ()\n}) : () -> ()\n')
    out = tmp_path / "out.mlir"
    assert main(["--allow-unregistered-dialect", str(source), "-o", str(out)]) == 0
    filecheck(
        out.read_text(), '// CHECK: "flow.dispatch"() ({\n// CHECK-NEXT: "flow.return"() : () -> ()'
    )


def test_help_lists_options_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--split-input-file", "--mlir-print-op-generic", "-o FILE", "--version"):
        assert option in text


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("poly-opt (polyaffine) ")
