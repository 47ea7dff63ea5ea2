"""The suite's own rules, enforced by tests/conftest.py at collection."""

from __future__ import annotations

from dataclasses import dataclass

from conftest import unmarked_mlir_tests


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
