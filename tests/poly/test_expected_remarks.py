"""Golden dependence remarks in MLIR's ``expected-remark`` style: the files of
tests/poly/golden run ``poly-opt --test-memref-dependence-check --verify-diagnostics`` from
their RUN line (collected by tests/conftest.py); these tests show that a wrong expectation
fails and what the remarks look like."""

from __future__ import annotations

from pathlib import Path

import pytest

from transforms.cli import main

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.mlir"))


def test_every_golden_file_runs_the_dependence_check() -> None:
    assert len(GOLDEN) == 9
    for path in GOLDEN:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics"


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
