"""Malformed input: every rejected file gets ``FILE:LINE:COL: error: message``, the source
line and a caret, and exit status 1 -- never a traceback, a hang or a RecursionError.

Each file in ``tests/corpus/invalid`` (our own malformed inputs) and
``tests/corpus/seed_invalid`` (the seed documents' own wrong examples, verbatim) starts
with ``// ERROR: LINE:COL: message``: the exact diagnostic expected. Those of
``tests/corpus/invalid`` are modern MLIR, and mlir-opt 22 gives the same diagnostic at the
same place, except where :data:`DIFFERS_FROM_MLIR_OPT` says why not (mlir-opt cannot read
the seed syntax of ``seed_invalid``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, run_mlir_opt

from affine import ParseError, VerifyError, parse, parse_affine_map
from affine.ir.registry import all_ops
from transforms.cli import main

FILES = sorted((CORPUS / "invalid").glob("*.mlir")) + sorted(
    (CORPUS / "seed_invalid").glob("*.mlir")
)
IDS = [f"{p.parent.name}/{p.name}" for p in FILES]


def _expected(path: Path) -> tuple[int, int, str]:
    header = path.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("// ERROR: ")
    line, col, message = header[len("// ERROR: ") :].split(":", 2)
    return int(line), int(col), message.strip()


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_exact_diagnostic(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line, col, message = _expected(path)
    status = main([str(path)])
    err = capsys.readouterr().err.splitlines()
    assert status == 1
    assert err[0] == f"{path}:{line}:{col}: error: {message}"
    lines = path.read_text(encoding="utf-8").splitlines()
    source_line = lines[line - 1] if line <= len(lines) else ""  # errors at end of input
    assert err[1] == source_line
    assert err[2] == " " * (col - 1) + "^"


# Files of tests/corpus/invalid where we differ from mlir-opt 22 on purpose, and why.
DIFFERS_FROM_MLIR_OPT = {
    "deep_nesting.mlir": "201 nested loops: mlir-opt reads them; the reader here stops at "
    "200 levels of nesting rather than let Python's stack overflow",
    "deep_parentheses.mlir": "201 nested parentheses in an affine map: mlir-opt reads them; "
    "the reader here stops at 200 levels of nesting rather than let Python's stack overflow",
}
INVALID = sorted((CORPUS / "invalid").glob("*.mlir"))


@pytest.mark.mlir
@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_mlir_opt_gives_the_same_diagnostic(path: Path, mlir_opt: str) -> None:
    result = run_mlir_opt(mlir_opt, path.read_text(encoding="utf-8"))
    if path.name in DIFFERS_FROM_MLIR_OPT:
        assert result.returncode == 0, result.stderr  # the difference is still there
        return
    line, col, message = _expected(path)
    errors = [x for x in result.stderr.splitlines() if ": error: " in x]
    assert result.returncode == 1 and errors, result.stderr
    assert errors[0] == f"<stdin>:{line}:{col}: error: {message}"


# Files of tests/corpus/invalid whose first error is mlir-opt's but whose whole output (notes,
# errors after the first) is not, and why.
OUTPUT_DIFFERS_FROM_MLIR_OPT = {
    "generic_alloc_segments_missing.mlir": "mlir-opt's note shows the missing "
    "operandSegmentSizes as zeros; the op here has none to show",
    "vector_extract_result_type.mlir": "mlir-opt infers vector.extract's result type while "
    "reading the custom form and adds 'failed to infer returned types'; here the verifier "
    "checks it, with the op's note",
}


@pytest.mark.mlir
@pytest.mark.parametrize(
    "path",
    [p for p in INVALID if p.name not in DIFFERS_FROM_MLIR_OPT],  # their first errors differ
    ids=lambda p: p.name,
)
def test_the_whole_error_output_is_mlir_opts(
    path: Path, mlir_opt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Notes ("see current operation" in generic form, "prior use here", "region branch
    point", ...) and the second error of a failed attribute parse, line for line."""
    theirs = subprocess.run(
        [mlir_opt, "--allow-unregistered-dialect", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    ).stderr
    assert main(["--allow-unregistered-dialect", str(path)]) == 1
    ours = capsys.readouterr().err
    if path.name in OUTPUT_DIFFERS_FROM_MLIR_OPT:
        assert ours != theirs  # the difference is still there
        assert ours.splitlines()[0] == theirs.splitlines()[0]
    else:
        assert ours == theirs


def test_enough_malformed_inputs() -> None:
    assert len(list((CORPUS / "invalid").glob("*.mlir"))) >= 30


def test_command_line_reports_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  %0 = arith.addi %x, %x : i32\n}\n")
    out = tmp_path / "out.mlir"
    out.write_text("precious\n")
    result = subprocess.run(
        [sys.executable, "-m", "transforms.cli", str(bad), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{bad}:2:19: error: use of undeclared SSA value name")
    assert out.read_text() == "precious\n"  # nothing the user owns is overwritten on failure


def test_missing_input_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/nonexistent/input.mlir"]) == 1
    assert "cannot read '/nonexistent/input.mlir'" in capsys.readouterr().err


def test_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-such-flag", "x.mlir"]) == 1  # as mlir-opt
    assert capsys.readouterr().err == (
        "poly-opt: error: unknown command line argument '--no-such-flag'; see 'poly-opt --help'\n"
    )


def test_api_errors_carry_locations() -> None:
    with pytest.raises(ParseError) as info:
        parse("func.func @f() {\n  return %q : i32\n}\n", "api.mlir")
    assert (
        str(info.value).splitlines()[0] == "api.mlir:2:10: error: use of undeclared SSA value name"
    )
    with pytest.raises(ParseError) as info:
        parse_affine_map("(d0, d1) -> (d0 * d1)")
    assert "at least one of the multiply operands" in info.value.message


@pytest.mark.parametrize("depth", [5000, 20000])
def test_pathological_nesting_is_an_error_not_a_crash(depth: int, tmp_path: Path) -> None:
    for text in (
        "#m = affine_map<(d0) -> (" + "(" * depth + "d0" + ")" * depth + ")>\n",
        '"a.b"() {x = ' + "[" * depth + "]" * depth + "} : () -> ()\n",
        "func.func @f(%a: " + "tuple<" * depth + "i32" + ">" * depth + ") { return }\n",
    ):
        path = tmp_path / "deep.mlir"
        path.write_text(text)
        result = subprocess.run(
            [sys.executable, "-m", "transforms.cli", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 1
        assert "nesting deeper than 200 levels" in result.stderr
        assert "Traceback" not in result.stderr


_PROPERTIES = (
    "isDataCache = true, isWrite = false, localityHint = 3 : i32, "
    "map = affine_map<(d0) -> (d0)>, permutation = affine_map<(d0) -> (d0)>, "
    "reassociation = [[0]], static_output_shape = array<i64: 4>"
)

# Generic-form ops of shapes their definition does not allow: no operands, no regions, an
# empty region, the wrong operand or result types, a region with an argument.
_WRONG_SHAPES = (
    '"{name}"() : () -> ()',
    '"{name}"() ({{}}) : () -> ()',
    '"{name}"() ({{}}, {{}}) : () -> ()',
    '"{name}"(%n) : (index) -> ()',
    '"{name}"(%n, %n, %n) ({{}}) : (index, index, index) -> ()',
    '"{name}"(%x) : (f32) -> f32',
    '%r = "{name}"() : () -> index',
    '"{name}"(%buf) ({{\n^bb0(%a: f32):\n  "x.body"() : () -> ()\n}}) : (memref<4xf32>) -> ()',
) + tuple(  # a scalar where a memref belongs, and the other way round, with common properties
    f'"{{name}}"({operands}) {{{{{_PROPERTIES}}}}} : ({types}) -> {result}'
    for operands, types, result in (
        ("%x", "f32", "()"),
        ("%x, %n, %n", "f32, index, index", "()"),
        ("%n, %x, %n", "index, f32, index", "()"),
        ("%x, %n", "f32, index", "f32"),
        ("%x", "f32", "memref<4xf32>"),
        ("%buf", "memref<4xf32>", "f32"),
        ("%buf, %buf", "memref<4xf32>, memref<4xf32>", "index"),
        ("%buf, %n", "memref<4xf32>, index", "vector<4xf32>"),
    )
)


@pytest.mark.parametrize("name", sorted(all_ops()))
def test_registered_op_of_any_shape_is_diagnosed(name: str) -> None:
    """Whatever a generic-form op holds, reading it succeeds or reports a located error."""
    for shape in _WRONG_SHAPES:
        op = shape.format(name=name)
        text = f"func.func @f(%n: index, %x: f32, %buf: memref<4xf32>) {{\n  {op}\n  return\n}}\n"
        try:
            parse(text, "shape.mlir")
        except (ParseError, VerifyError) as error:
            assert error.location is not None, op


# Generic-form memref ops given a scalar where their definition wants a memref: mlir-opt's
# error, word for word (these once ended in an internal error).
_NOT_A_MEMREF = (
    '"memref.prefetch"(%x) {isDataCache = true, isWrite = false, localityHint = 3 : i32}'
    " : (f32) -> ()",
    '%r = "memref.transpose"(%x) {permutation = affine_map<(d0) -> (d0)>} : (f32) -> memref<4xf32>',
    '%r = "memref.collapse_shape"(%buf) {reassociation = [[0]]} : (memref<4xf32>) -> f32',
    '%r = "memref.expand_shape"(%x) {reassociation = [[0]], static_output_shape = array<i64: 4>}'
    " : (f32) -> memref<4xf32>",
    '%r = "memref.view"(%x, %n) : (f32, index) -> memref<4xf32>',
    '%r = "memref.reshape"(%x, %n) : (f32, index) -> f32',
    '%r = "memref.reshape"(%buf, %buf) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>',
    '"memref.dma_wait"(%x, %n, %n) : (f32, index, index) -> ()',
    '%r = "memref.load"(%x, %n) : (f32, index) -> f32',
    '%r = "affine.load"(%x, %n) {map = affine_map<(d0) -> (d0)>} : (f32, index) -> f32',
    '"affine.store"(%n, %x, %n) {map = affine_map<(d0) -> (d0)>} : (index, f32, index) -> ()',
)


@pytest.mark.mlir
@pytest.mark.parametrize("op", _NOT_A_MEMREF)
def test_scalar_for_a_memref_is_mlir_opts_error(op: str, mlir_opt: str) -> None:
    text = f"func.func @f(%n: index, %x: f32, %buf: memref<4xf32>) {{\n  {op}\n  return\n}}\n"
    with pytest.raises(VerifyError) as error:
        parse(text, "-")
    ours = str(error.value).splitlines()[0]
    expected = run_mlir_opt(mlir_opt, text).stderr.splitlines()[0]
    assert ours.removeprefix("-") == expected.removeprefix("<stdin>")


def test_integer_literals_of_any_length(capsys: pytest.CaptureFixture[str]) -> None:
    # Python converts at most 4300 decimal digits at once; mlir-opt reads any number
    zeros = "0" * 5000
    module = parse(
        f"func.func @f() -> i64 {{\n  %c = arith.constant {zeros}7 : i64\n  return %c : i64\n}}\n"
    )
    assert "arith.constant 7 : i64" in str(module)
    ones = "1" * 5000
    with pytest.raises(ParseError, match="integer constant out of range for attribute"):
        parse(
            f"func.func @f() -> i64 {{\n  %c = arith.constant {ones} : i64\n  return %c : i64\n}}\n"
        )


def test_an_op_over_several_lines_starts_on_its_own_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # mlir-opt's Diagnostic::appendOp: a multi-line op is shown from a new line, in the
    # message as in the "see current operation" note
    path = tmp_path / "k.mlir"
    path.write_text("func.func @f() {\n  affine.for %i = 0 to 4 {\n  }\n}\n")
    assert main([str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{path}:2:3: error: block with no terminator, has "
    assert err[1].startswith('"affine.for"() <{lowerBoundMap = affine_map<() -> (0)>')
    assert err[2] == "^bb0(%arg0: index):"
    assert f"{path}:2:3: note: see current operation: " in err
