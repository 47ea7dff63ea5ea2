"""The code base is ruff-clean: lint rules (including the layering bans) and formatting."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import ROOT


def _ruff() -> list[str]:
    found = shutil.which("ruff")
    if found:
        return [found]
    pytest.importorskip("ruff", reason="the test extra installs ruff")
    return [sys.executable, "-m", "ruff"]


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]])
def test_ruff(command: list[str]) -> None:
    result = subprocess.run(
        [*_ruff(), *command], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
