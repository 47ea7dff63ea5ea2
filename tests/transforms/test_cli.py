"""poly-opt as a drop-in for mlir-opt: input from a file or stdin, -o, split input, generic form."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_mlir_opt
from filecheck import filecheck

from transforms.cli import FLAGS, UsageError, main, parse_args

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


# Latin-1 bytes (not UTF-8) in a comment, a string literal and an opaque dialect attribute:
# mlir-opt reads bytes, so the file is valid; the string prints its byte as \E9, the opaque
# attribute keeps the raw byte.
NOT_UTF8 = (
    b'func.func @f() {\n  // caf\xe9\n  "x.op"() {s = "caf\xe9", t = #foo<"\xe9">}'
    b" : () -> ()\n  return\n}\n"
)


def test_bytes_that_are_not_utf8_are_read_and_written_back(tmp_path: Path) -> None:
    source = tmp_path / "latin1.mlir"
    source.write_bytes(NOT_UTF8)
    out = tmp_path / "out.mlir"
    assert main(["--allow-unregistered-dialect", str(source), "-o", str(out)]) == 0
    assert b's = "caf\\E9", t = #foo<"\xe9">' in out.read_bytes()
    printed = subprocess.run(
        [sys.executable, "-m", "transforms.cli", "--allow-unregistered-dialect", str(source)],
        capture_output=True,
        timeout=120,
    )
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == out.read_bytes()


@pytest.mark.mlir
def test_bytes_that_are_not_utf8_print_as_mlir_opts(mlir_opt: str, tmp_path: Path) -> None:
    source = tmp_path / "latin1.mlir"
    source.write_bytes(NOT_UTF8)
    ours = subprocess.run(
        [sys.executable, "-m", "transforms.cli", "--allow-unregistered-dialect", str(source)],
        capture_output=True,
        timeout=120,
    )
    theirs = subprocess.run(
        [mlir_opt, "--allow-unregistered-dialect", str(source)], capture_output=True, timeout=120
    )
    assert ours.stdout == theirs.stdout


def test_help_lists_every_accepted_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    general = text.split("General options:")[1].split("Pass options")[0]
    listed = set(re.findall(r"^  (?:-h, )?(-[-\w]+)", general, re.M))
    assert listed == {("-" if f.name == "o" else "--") + f.name for f in FLAGS}
    for flag in FLAGS:
        assert flag.usage in general and flag.help.split()[0] in general
    for name in ("affine-loop-tile", "test-memref-dependence-check", "run", "emit"):
        assert f"  --{name} " in text  # passes, then reports and actions
    # every listed switch is accepted; anything else is refused
    for switch in re.findall(r"^  (--[-\w]+)\s", general, re.M):
        if switch not in ("--help", "--version", "--pass-pipeline"):
            parse_args([switch])
    with pytest.raises(UsageError, match="unknown command line argument '--no-such-flag'"):
        parse_args(["--no-such-flag"])


ONE_FUNCTION = (
    "#m = affine_map<(d0) -> (d0 floordiv 2)>\nfunc.func @f(%A: memref<8xf32>) {\n  return\n}\n"
)


def test_no_implicit_module_prints_the_top_level_op(tmp_path: Path) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(ONE_FUNCTION)
    plain = poly_opt(str(path))
    bare = poly_opt("--no-implicit-module", str(path))
    assert plain.stdout.startswith("module {")
    assert (
        bare.returncode == 0
        and bare.stdout == "func.func @f(%arg0: memref<8xf32>) {\n  return\n}\n\n"
    )
    module = tmp_path / "m.mlir"
    module.write_text("module {\n" + ONE_FUNCTION.split("\n", 1)[1] + "}\n")
    assert poly_opt("--no-implicit-module", str(module)).stdout == plain.stdout


def test_no_implicit_module_needs_one_top_level_op(tmp_path: Path) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(TWO_CHUNKS.replace("// -----\n", ""))
    result = poly_opt("--no-implicit-module", str(path))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(
        f"{path}:4:1: error: source must contain a single top-level operation, found: 2\n"
        "func.func @b(%x: i32) -> i32 {\n^"
    )
    assert poly_opt(str(path)).returncode == 0


def test_pipeline_anchor_must_be_the_top_level_op(tmp_path: Path) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(ONE_FUNCTION)
    anchored = "--pass-pipeline=builtin.module(func.func(affine-loop-unroll))"
    assert poly_opt(anchored, str(path)).returncode == 0
    result = poly_opt("--no-implicit-module", anchored, str(path))
    assert result.returncode == 1
    assert "error: can't run 'builtin.module' pass manager on 'func.func' op" in result.stderr
    on_function = "--pass-pipeline=func.func(affine-loop-unroll)"
    assert poly_opt("--no-implicit-module", on_function, str(path)).returncode == 0
    assert poly_opt(on_function, str(path)).returncode == 1
    bare = poly_opt("--pass-pipeline=affine-loop-unroll", str(path))
    assert bare.returncode == 1 and "wrapped with the anchor operation type" in bare.stderr


@pytest.mark.mlir
@pytest.mark.parametrize(
    "args",
    [
        ["--no-implicit-module"],
        ["--no-implicit-module", "--pass-pipeline=func.func(affine-loop-unroll{unroll-factor=2})"],
        ["--pass-pipeline=builtin.module(func.func(affine-loop-unroll{unroll-factor=2}))"],
    ],
)
def test_no_implicit_module_is_mlir_opts(mlir_opt: str, args: list[str], tmp_path: Path) -> None:
    text = ONE_FUNCTION.replace(
        "  return",
        "  affine.for %i = 0 to 8 {\n    %v = affine.load %A[%i floordiv 2] : memref<8xf32>\n  }\n  return",
    )
    path = tmp_path / "f.mlir"
    path.write_text(text)
    assert poly_opt(*args, str(path)).stdout == run_mlir_opt(mlir_opt, text, *args).stdout


def test_disable_threading_compiles_kernels_without_openmp(tmp_path: Path) -> None:
    path = tmp_path / "p.mlir"
    path.write_text(
        "func.func @p(%A: memref<64xf32>) {\n  affine.parallel (%i) = (0) to (64) {\n"
        "    %v = affine.load %A[%i] : memref<64xf32>\n"
        "    affine.store %v, %A[%i] : memref<64xf32>\n  }\n  return\n}\n"
    )
    threaded = poly_opt("--emit=c", str(path))
    single = poly_opt("--emit=c", "--mlir-disable-threading", str(path))
    assert "#pragma omp parallel for" in threaded.stdout
    assert single.returncode == 0 and "#pragma omp parallel" not in single.stdout
    ran = poly_opt("--run", "--mlir-disable-threading", str(path))
    assert ran.returncode == 0 and "@p arg0 memref<64xf32>: sum=" in ran.stdout


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("poly-opt (polyaffine) ")


def test_a_reader_that_closes_early_stops_poly_opt_quietly(tmp_path: Path) -> None:
    """``poly-opt ... | head -1``: exit status 141 (SIGPIPE's), no traceback, no internal error."""
    nests = "".join(
        f"  affine.for %i{k} = 0 to 100 {{\n"
        f"    %v{k} = affine.load %A[%i{k}] : memref<100xf32>\n"
        f"    affine.store %v{k}, %A[%i{k} + 0] : memref<100xf32>\n  }}\n"
        for k in range(40)
    )
    kernel = tmp_path / "k.mlir"
    kernel.write_text(f"func.func @f(%A: memref<100xf32>) {{\n{nests}  return\n}}\n")
    command = [sys.executable, "-m", "transforms.cli", str(kernel), "--dependence-report=json"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline().startswith(b"{")
        child.stdout.close()
        errors = child.stderr.read().decode()
        status = child.wait(timeout=300)
    assert status == 141 and errors == "", errors
