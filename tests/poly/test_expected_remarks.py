"""Golden dependence remarks in MLIR's ``expected-remark`` style: the files of
tests/poly/golden run ``poly-opt --test-memref-dependence-check --verify-diagnostics`` from
their RUN line (collected by tests/conftest.py), so the analysis gives exactly what they
expect; here the brute-force oracle checks that what they expect is true, and these tests
show that a wrong expectation fails and what the remarks look like."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from dep_oracle import bind_index_arguments, covers, index_argument_count, remarks_over_values

import affine
from transforms.cli import main

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.mlir"))


def test_every_golden_file_runs_the_dependence_check() -> None:
    assert len(GOLDEN) == 9
    for path in GOLDEN:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics"


# Values tried for index arguments a golden file leaves symbolic.
SYMBOL_VALUES = range(8)


def expected_remarks_of(text: str) -> dict[tuple[int, int, int], tuple[str, bool]]:
    """``(I, J, depth) -> (value, over-approximated?)`` from a golden file's annotations (an
    ``over-approximated`` note follows the remark it is about)."""
    found: dict[tuple[int, int, int], tuple[str, bool]] = {}
    last = None
    for m in re.finditer(r"expected-(remark|note)@above \{\{(.*?)\}\}", text):
        if m[1] == "note":
            assert last is not None and m[2].startswith("over-approximated"), m[0]
            found[last] = (found[last][0], True)
            continue
        remark = re.fullmatch(r"dependence from (\d+) to (\d+) at depth (\d+) = (.*)", m[2])
        assert remark is not None, m[0]
        last = (int(remark[1]), int(remark[2]), int(remark[3]))
        found[last] = (remark[4], False)
    return found


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_expectations_equal_brute_force(path: Path) -> None:
    """Every expected remark is the brute-force answer (for every value tried for a
    symbolic index argument); one marked over-approximated contains it."""
    text = path.read_text(encoding="utf-8")
    module = affine.parse(text, str(path))
    count = index_argument_count(module)
    runs = [
        bind_index_arguments(module, values)
        for values in itertools.product(SYMBOL_VALUES, repeat=count)
    ]
    exact = remarks_over_values(module, runs)
    expected = expected_remarks_of(text)
    assert expected.keys() == exact.keys()
    wrong = {
        key: (value, exact[key])
        for key, (value, approximate) in expected.items()
        if not (covers(value, exact[key]) if approximate else value == exact[key])
    }
    assert not wrong, wrong


def test_an_over_approximated_false_is_wrong() -> None:
    assert covers("[1, 7]", "[1, 1]") and covers("true", "false") and covers("[0, 3]", "false")
    assert not covers("false", "[1, 1]") and not covers("[2, 7]", "[1, 1]")
    assert not covers("[1, 7]", "true")


def test_a_wrong_expectation_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parent / "golden" / "else_branch.mlir").read_text()
    wrong = text.replace("depth 1 = [1, 1]}}", "depth 1 = false}}")
    path = tmp_path / "wrong.mlir"
    path.write_text(wrong)
    assert main([str(path), "--test-memref-dependence-check", "--verify-diagnostics"]) == 1
    err = capsys.readouterr().err
    assert "error: unexpected remark: dependence from 0 to 1 at depth 1 = [1, 1]" in err
    assert (
        'error: expected remark "dependence from 0 to 1 at depth 1 = false" was not produced' in err
    )


def test_remarks_are_mlir_opts_with_notes(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN[0]
    assert main([str(path), "--test-memref-dependence-check", "-o", "-"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].endswith("remark: dependence from 0 to 0 at depth 1 = false")
    assert err[1].strip().startswith("%a = affine.load")  # the source line
    assert err[2].strip() == "^"
    assert ": note: see current operation: %0 = affine.load %arg0[%arg1]" in err[3]
