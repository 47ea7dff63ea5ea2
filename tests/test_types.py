"""The library type-checks: mypy over affine, poly and transforms with the settings of
pyproject.toml (the modules whose typing debt is recorded there are checked for every other
error code). Every ``# type: ignore`` names its error code and says why."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT

pytest.importorskip("mypy", reason="the test extra installs mypy")


# Kept between runs (mypy checks what changed), outside the checkout.
CACHE = Path(tempfile.gettempdir()) / "polyaffine-mypy-cache"


def test_mypy_passes() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(CACHE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_type_ignore_says_why() -> None:
    bare = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in ("affine", "poly", "transforms")
        for path in sorted((ROOT / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "type: ignore" in line and not re.search(r"# type: ignore\[[a-z, -]+\]  # \S", line)
    ]
    assert bare == []
