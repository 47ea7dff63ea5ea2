"""The suite's own rules, enforced by tests/conftest.py at collection."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

from conftest import ROOT, unmarked_mlir_tests


@dataclass
class _Item:
    nodeid: str
    fixturenames: tuple[str, ...]
    marked: bool

    def get_closest_marker(self, name: str) -> object | None:
        return name if self.marked and name == "mlir" else None


def test_a_test_using_mlir_opt_without_the_marker_is_reported() -> None:
    items = [
        _Item("uses_mlir_opt", ("mlir_opt",), marked=False),
        _Item("uses_mlir_runner", ("tmp_path", "mlir_runner"), marked=False),
        _Item("marked", ("mlir_opt",), marked=True),
        _Item("plain", ("tmp_path",), marked=False),
    ]
    assert unmarked_mlir_tests(items) == ["uses_mlir_opt", "uses_mlir_runner"]


def test_property_tests_are_derandomized_on_ci() -> None:
    """With CI set, conftest.py loads a profile drawing fixed examples with no database."""
    probe = (
        "import conftest\n"
        "from hypothesis import settings\n"
        "print(settings.default.derandomize, settings.default.database)\n"
    )
    environment = {key: value for key, value in os.environ.items() if key != "CI"}
    environment["PYTHONPATH"] = f"{ROOT}{os.pathsep}{ROOT / 'tests'}"
    outputs = []
    for ci in ({"CI": "1"}, {}):
        result = subprocess.run(
            [sys.executable, "-c", probe],
            env={**environment, **ci},
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(result.stdout.split(maxsplit=1))
    assert outputs[0] == ["True", "None\n"]
    assert outputs[1][0] == "False"
