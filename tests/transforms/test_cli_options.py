"""Strict options: every pass option value and every ``--pass-pipeline`` is checked when the
command line is read; a bad one is one error line (and a caret into a pipeline), exit 1,
nothing written and nothing the user owns overwritten."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import affine
import transforms
from affine.errors import PolyError
from transforms import registry
from transforms.cli import main, parse_args

KERNEL = """\
func.func @k(%A: memref<8x8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %v = affine.load %A[%i, %j, %k] : memref<8x8x8xf32>
        affine.store %v, %A[%i, %j, %k] : memref<8x8x8xf32>
      }
    }
  }
  return
}
"""

UINT_LIST = "expected a comma-separated list of integers >= 1"
PERMUTATION = "expected a permutation of 0..n-1 (each position once, comma-separated)"
BAD_OPTIONS = [
    (
        "--affine-loop-tile=tile-sizes=0",
        f"for the --tile-sizes option of --affine-loop-tile: '0' value invalid; {UINT_LIST}",
    ),
    (
        "--affine-loop-tile=tile-sizes=-4",
        f"for the --tile-sizes option of --affine-loop-tile: '-4' value invalid; {UINT_LIST}",
    ),
    (
        "--affine-loop-tile=tile-sizes=32,,32",
        f"for the --tile-sizes option of --affine-loop-tile: '32,,32' value invalid; {UINT_LIST}",
    ),
    (
        "--affine-loop-tile=tile-size=x",
        "for the --tile-size option of --affine-loop-tile: 'x' value invalid; "
        "expected an integer >= 1",
    ),
    (
        "--affine-loop-tile=tile-size",
        "for the --tile-size option of --affine-loop-tile: requires a value!",
    ),
    (
        "--affine-loop-tile=cache-size=0",
        "for the --cache-size option of --affine-loop-tile: '0' value invalid; "
        "expected an integer >= 1",
    ),
    (
        "--affine-loop-tile=separate=2",
        "for the --separate option of --affine-loop-tile: '2' is invalid value for boolean "
        "argument! Try 0 or 1",
    ),
    (
        "--affine-loop-tile=bogus=1",
        "no such option 'bogus' for pass 'affine-loop-tile' "
        "(options: cache-size, separate, tile-size, tile-sizes)",
    ),
    (
        "--affine-loop-unroll=unroll-factor=0",
        "for the --unroll-factor option of --affine-loop-unroll: '0' value invalid; "
        "expected an integer >= 1 or -1",
    ),
    (
        "--affine-loop-unroll=unroll-num-reps=0",
        "for the --unroll-num-reps option of --affine-loop-unroll: '0' value invalid; "
        "expected an integer >= 1",
    ),
    (
        "--affine-loop-unroll-jam=unroll-jam-factor=-3",
        "for the --unroll-jam-factor option of --affine-loop-unroll-jam: '-3' value invalid; "
        "expected an integer >= 1",
    ),
    (
        "--test-loop-permutation=permutation-map=0,0,1",
        "for the --permutation-map option of --test-loop-permutation: '0,0,1' value invalid; "
        f"{PERMUTATION}",
    ),
    (
        "--affine-loop-interchange=permutation-map=1,2",
        "for the --permutation-map option of --affine-loop-interchange: '1,2' value invalid; "
        f"{PERMUTATION}",
    ),
    (
        "--affine-loop-skew=skew-factors=",
        "for the --skew-factors option of --affine-loop-skew: '' value invalid; "
        "expected a non-empty comma-separated list of integers",
    ),
    (
        "--affine-parallelize=max-nested=-1",
        "for the --max-nested option of --affine-parallelize: '-1' value invalid; "
        "expected an integer from 0 to 4294967295",
    ),
    (
        "--verify-each=2",
        "for the --verify-each option: '2' is invalid value for boolean argument! Try 0 or 1",
    ),
    (
        "--mlir-print-op-on-diagnostic=yes",
        "for the --mlir-print-op-on-diagnostic option: 'yes' is invalid value for boolean "
        "argument! Try 0 or 1",
    ),
    (
        "--pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-sizes=0}))",
        f"for the --tile-sizes option of --affine-loop-tile: '0' value invalid; {UINT_LIST}",
    ),
    (
        "--pass-pipeline=affine-loop-tile",
        "expected pass pipeline to be wrapped with the anchor operation type, "
        "e.g. 'builtin.module(...)'",
    ),
]

P = "builtin.module(func.func(affine-loop-tile{tile-size=2})"
BAD_PIPELINES = [
    (P, 56, "encountered unbalanced parentheses while parsing pipeline"),
    (
        P + "))",
        57,
        "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
    ),
    (
        "builtin.module(func.func(nopass))",
        26,
        "'nopass' does not refer to a registered pass or pass pipeline",
    ),
    (
        "builtin.module(func.func(affine-loop-tile{tile-size=2)))",
        42,
        "missing closing '}' while processing pass options",
    ),
    (
        "builtin.module(func.func(affine-loop-tile{tile-size=2}x))",
        55,
        "expected ',' after parsing pipeline",
    ),
    (
        "builtin.module(func.func(affine-loop-tile,,affine-loop-unroll))",
        43,
        "'' does not refer to a registered pass or pass pipeline",
    ),
    ("builtin.module()", 16, "'' does not refer to a registered pass or pass pipeline"),
    (
        "builtin.module(func.func(affine-loop-tile affine-loop-unroll))",
        26,
        "'affine-loop-tile affine-loop-unroll' does not refer to a registered pass or pass "
        "pipeline",
    ),
]


def _run_keeping_output(tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str) -> str:
    """Run poly-opt with ``flag`` and ``-o`` onto a file the user owns; check exit 1, no
    output and the file untouched; return standard error."""
    source = tmp_path / "k.mlir"
    source.write_text(KERNEL)
    owned = tmp_path / "out.mlir"
    owned.write_text("the user's own file\n")
    status = main([str(source), flag, "-o", str(owned)])
    out, err = capsys.readouterr()
    assert status == 1 and out == "", err
    assert owned.read_text() == "the user's own file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.mlir", "out.mlir"]
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(("flag", "message"), BAD_OPTIONS)
def test_bad_option_values_are_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, message: str
) -> None:
    err = _run_keeping_output(tmp_path, capsys, flag)
    assert err == f"poly-opt: error: {message}\n"


def test_a_wrong_pinned_machine_is_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POLY_MACHINE", "l2=1M")
    err = _run_keeping_output(tmp_path, capsys, "--affine-register-tile")
    assert err == "poly-opt: error: $POLY_MACHINE: expected key=positive integer, got 'l2=1M'\n"


@pytest.mark.parametrize(("pipeline", "column", "message"), BAD_PIPELINES)
def test_bad_pipelines_point_into_the_pipeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pipeline: str, column: int, message: str
) -> None:
    err = _run_keeping_output(tmp_path, capsys, f"--pass-pipeline={pipeline}")
    caret = " " * (column - 1) + "^"
    assert err == f"poly-opt: error: --pass-pipeline:1:{column}: {message}\n{pipeline}\n{caret}\n"


def test_a_full_pipeline_runs_its_passes_in_order() -> None:
    pipeline = (
        "builtin.module( func.func(affine-loop-tile{tile-sizes=2,4 separate} , "
        "affine-loop-unroll{unroll-factor=2}), func.func(affine-parallelize{}) )"
    )
    opts = parse_args([f"--pass-pipeline={pipeline}"])
    assert opts.passes == [
        ("affine-loop-tile", "tile-sizes=2,4 separate"),
        ("affine-loop-unroll", "unroll-factor=2"),
        ("affine-parallelize", ""),
    ]


@pytest.mark.mlir
@pytest.mark.parametrize(
    "flag",
    [
        "--affine-loop-tile=tile-sizes=-4",
        "--affine-loop-tile=separate=2",
        "--verify-each=2",
        f"--pass-pipeline={P}",
        f"--pass-pipeline={P}))",
        "--pass-pipeline=builtin.module(func.func(nopass))",
    ],
)
def test_mlir_opt_refuses_the_same(mlir_opt: str, tmp_path: Path, flag: str) -> None:
    """What mlir-opt 22 refuses is refused here too (and more: zero sizes, bad permutations)."""
    source = tmp_path / "k.mlir"
    source.write_text(KERNEL)
    result = subprocess.run([mlir_opt, str(source), flag], capture_output=True, text=True)
    assert result.returncode == 1 and result.stdout == ""
    assert main([str(source), flag, "-o", str(tmp_path / "out.mlir")]) == 1


def test_python_facade_checks_the_same_options() -> None:
    module = affine.parse(KERNEL, "k.mlir")
    with pytest.raises(PolyError, match="--tile-sizes option of --affine-loop-tile: '0,4'"):
        transforms.tile(module, sizes=[0, 4])
    with pytest.raises(PolyError, match=r"--permutation-map option .* '0,0,1' value invalid"):
        transforms.permute(module, [0, 0, 1])
    with pytest.raises(PolyError, match=r"--unroll-factor option .* 'True' value invalid"):
        transforms.unroll(module, factor=True)  # type: ignore[arg-type]  # a bool is not a factor
    assert transforms.tile(module, sizes=[2, 4, 8]).remarks == [
        "k.mlir:2:3: remark: loop band tiled: sizes 2, 4, 8 for %i, %j, %k; "
        "intra-tile order %i, %j, %k\n  affine.for %i = 0 to 8 {\n  ^"
    ]


OPTION_TEXT = st.text(alphabet="abcdefgilmnoprstuxz-=,0123456789{} ", max_size=30)
PASS_NAMES = [entry.name for entry in registry.all_passes()]


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(PASS_NAMES),
    field_index=st.integers(0, 5),
    value=st.one_of(
        st.integers(-(2**40), 2**40).map(str),
        st.lists(st.integers(-3, 70), max_size=6).map(lambda xs: ",".join(map(str, xs))),
        OPTION_TEXT,
    ),
    noise=OPTION_TEXT,
)
def test_fuzzed_pass_options_never_crash(
    name: str, field_index: int, value: str, noise: str
) -> None:
    """Any option text is either accepted (and the pass built) or a PolyError: no traceback."""
    import dataclasses

    entry = registry.lookup(name)
    assert entry is not None
    cls = entry.load()
    fields = [f.name.replace("_", "-") for f in dataclasses.fields(cls)] or ["none"]
    text = f"{fields[field_index % len(fields)]}={value} {noise}"
    for flag in (
        f"--{name}={text}",
        f"--pass-pipeline=builtin.module(func.func({name}{{{text}}}))",
    ):
        try:
            parse_args([flag])
        except PolyError as error:
            assert str(error)


PIPELINE_PIECES = st.sampled_from(
    [
        "builtin.module",
        "func.func",
        "(",
        ")",
        "{",
        "}",
        ",",
        " ",
        "affine-loop-tile",
        "x",
        "tile-size=2",
        "affine-loop-unroll",
        "=",
        "nopass",
    ]
)


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(PIPELINE_PIECES, max_size=14))
def test_fuzzed_pipelines_never_crash(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        passes = parse_args([f"--pass-pipeline={text}"]).passes
    except PolyError as error:
        message = str(error)
        if message.startswith("--pass-pipeline:1:"):
            column = int(message.split(":")[2])
            caret_line = message.splitlines()[-1]
            assert caret_line == " " * (column - 1) + "^" and column <= len(text) + 1
        return
    assert text.count("(") == text.count(")")
    assert all(registry.lookup(name) is not None for name, _ in passes)


IMPERFECT = """\
func.func @g(%A: memref<8x8xf32>, %B: memref<8xf32>) {
  affine.for %r = 0 to 8 {
    %z = arith.constant 0.0 : f32
    affine.store %z, %B[%r] : memref<8xf32>
    affine.for %c = 0 to 8 {
      %v = affine.load %A[%r, %c] : memref<8x8xf32>
      affine.store %v, %A[%r, %c] : memref<8x8xf32>
    }
  }
  return
}
"""


def test_option_values_that_do_not_fit_a_band_are_remarked() -> None:
    module = affine.parse(KERNEL, "k.mlir")
    head = "k.mlir:2:3: remark: "
    caret = "\n  affine.for %i = 0 to 8 {\n  ^"
    assert transforms.skew(module, [1, 2, 3, 4]).remarks == [
        f"{head}loop band not skewed: skew-factors (4 factors) needs a perfect nest of 5 "
        f"loops; the deepest here has 3{caret}"
    ]
    assert transforms.permute(module, [3, 2, 1, 0]).remarks == [
        f"{head}loop band not permuted: permutation-map (4 entries) needs a perfect nest of 4 "
        f"loops; the deepest here has 3{caret}"
    ]
    assert transforms.interchange(module, [1, 0]).remarks == [
        f"{head}loop band not permuted: permutation-map has 2 entries for this band of 3 loops "
        f"(%i, %j, %k){caret}"
    ]
    assert transforms.tile(module, sizes=[2, 2, 2, 2, 2]).remarks == [
        f"{head}tile sizes not used: tile-sizes gives 5 sizes for this band of 3 loops "
        f"(%i, %j, %k); the last 2 (2, 2) are not used{caret}",
        f"{head}loop band tiled: sizes 2, 2, 2 for %i, %j, %k; intra-tile order %i, %j, %k{caret}",
    ]
    imperfect = affine.parse(IMPERFECT, "g.mlir")
    assert transforms.tile(imperfect, sizes=[2, 4]).remarks == [
        "g.mlir:2:3: remark: tile sizes not used: tile-sizes gives 2 sizes for this band of 1 "
        "loop (%r); the last 1 (4) are not used: the loops inside it are not perfectly nested "
        "in it\n  affine.for %r = 0 to 8 {\n  ^",
        "g.mlir:2:3: remark: loop band tiled: sizes 2 for %r; intra-tile order %r"
        "\n  affine.for %r = 0 to 8 {\n  ^",
    ]
