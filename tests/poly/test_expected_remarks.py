"""Golden dependence remarks in MLIR's ``expected-remark`` style, checked by
``poly-opt --test-memref-dependence-check --verify-diagnostics``."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS

from transforms.cli import main

GOLDEN = sorted((CORPUS / "deps_expected").glob("*.mlir"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_expected_remarks(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main([str(path), "--test-memref-dependence-check", "--verify-diagnostics", "-o", "-"])
    assert status == 0, capsys.readouterr().err


def test_a_wrong_expectation_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (CORPUS / "deps_expected" / "else_branch.mlir").read_text()
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
