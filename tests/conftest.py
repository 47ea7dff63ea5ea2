"""Shared fixtures: the real mlir-opt / mlir-runner (skipped with a reason when missing), and
the collector of golden ``.mlir`` tests (MLIR's lit convention: ``// RUN:`` lines,
``// CHECK`` patterns next to the input, ``expected-*`` comments with
``--verify-diagnostics``)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from filecheck import filecheck
from hypothesis import settings

from affine.exec.mlir_runner import find_tool
from transforms.cli import main

TESTS = Path(__file__).parent
ROOT = TESTS.parent
CORPUS = TESTS / "corpus"

# On CI (the CI environment variable set, to anything) property tests draw the same examples
# on every run and keep none from earlier runs, so a run cannot fail by chance; locally they
# explore. Recent hypothesis versions load a profile of that name by themselves; this one
# holds for every version the project accepts.
settings.register_profile("ci", derandomize=True, database=None)
if "CI" in os.environ:
    settings.load_profile("ci")

# Every test sees the same machine, whatever runs it: the one the schedules the tests assert
# were made for (a 512-bit vector unit's 32 registers, a 1 MiB L2), in this process and in
# every poly-opt child. tests/transforms/test_machine.py reads the real one.
os.environ["POLY_MACHINE"] = "l1=32 l2=1024 l3=32768 l1-ways=8 vector-bits=512"

MLIR_OPT = find_tool("mlir-opt")
MLIR_RUNNER = find_tool("mlir-runner")


@pytest.fixture(scope="session")
def mlir_opt() -> str:
    if MLIR_OPT is None:
        pytest.skip("mlir-opt 22 is not installed (apt-get install mlir-22-tools)")
    return MLIR_OPT


@pytest.fixture(scope="session")
def mlir_runner() -> str:
    if MLIR_RUNNER is None or MLIR_OPT is None:
        pytest.skip("mlir-runner 22 is not installed (apt-get install mlir-22-tools)")
    return MLIR_RUNNER


def poly_opt(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``poly-opt ARGS`` of this checkout, run as a child process."""
    return subprocess.run(
        [sys.executable, "-m", "transforms.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_mlir_opt(tool: str, text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [tool, "--allow-unregistered-dialect", *args, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )


def corpus_kernel(name: str, sizes: dict[str, int] | None = None) -> Any:
    """Corpus kernel ``name`` as a module, at ``sizes`` (its ``// scale:`` header's names,
    scaled as ``benchmarks/kernels.py`` does) when given."""
    import importlib.util

    import affine

    text = (CORPUS / "kernels" / f"{name}.mlir").read_text()
    if sizes:
        spec = importlib.util.spec_from_file_location(
            "benchmark_kernels", ROOT / "benchmarks" / "kernels.py"
        )
        assert spec is not None and spec.loader is not None
        scaling = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(scaling)
        text = scaling.scaled_text(text, sizes)
    return affine.parse(text, f"{name}.mlir")


# -- golden .mlir files: `// RUN:` lines, FileCheck patterns and expected-* diagnostics -------------

_RUN = re.compile(r"^//\s*RUN:\s*(?P<command>.*)$", re.M)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    """A ``.mlir`` file outside the corpus whose first line is ``// RUN: ...`` is a test."""
    if file_path.suffix != ".mlir" or CORPUS in file_path.parents:
        return None
    with file_path.open(encoding="utf-8") as f:
        if not _RUN.match(f.readline()):
            return None
    return MlirFile.from_parent(parent, path=file_path)


def run_golden(path: Path, command: str) -> None:
    """Run one RUN line of the golden file ``path``; fail with poly-opt's or FileCheck's
    message."""
    tool, _, check = (part.strip() for part in command.partition("|"))
    words = shlex.split(tool)
    if words[0] != "poly-opt":
        raise ValueError(f"RUN line must start with poly-opt: {command}")
    relative = str(path.relative_to(ROOT)) if ROOT in path.parents else str(path)
    args = [relative if w == "%s" else w for w in words[1:]]
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main([*args, "--mlir-print-op-on-diagnostic=false"])
    finally:
        os.chdir(cwd)
    assert status == 0, f"poly-opt exited with {status}:\n{err.getvalue()}"
    if check:
        check_words = shlex.split(check)
        if check_words[:2] != ["FileCheck", "%s"]:
            raise ValueError(f"only '| FileCheck %s' is understood: {command}")
        prefix = "CHECK"
        for word in check_words[2:]:
            prefix = word.removeprefix("--check-prefix=")
        filecheck(out.getvalue(), path.read_text(encoding="utf-8"), prefix)


class MlirFile(pytest.File):
    """One test per RUN line: ``poly-opt %s ARGS`` (exit status 0 expected, as with
    ``--verify-diagnostics``), optionally ``| FileCheck %s [--check-prefix=P]`` on its
    standard output. ``%s`` is the file, relative to the repository root."""

    def collect(self) -> Iterator[MlirRun]:
        text = self.path.read_text(encoding="utf-8")
        for k, m in enumerate(_RUN.finditer(text)):
            yield MlirRun.from_parent(self, name=f"RUN{k + 1}", command=m.group("command"))


class MlirRun(pytest.Item):
    def __init__(self, *, command: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.command = command

    def runtest(self) -> None:
        run_golden(self.path, self.command)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.path.name}::{self.name}: {self.command}"


# -- markers ----------------------------------------------------------------------------------------

MLIR_FIXTURES = frozenset({"mlir_opt", "mlir_runner"})


def unmarked_mlir_tests(items: list[pytest.Item]) -> list[str]:
    """Tests that use the mlir-opt or mlir-runner fixture without the ``mlir`` marker."""
    return [
        item.nodeid
        for item in items
        if MLIR_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("mlir") is None
    ]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unmarked = unmarked_mlir_tests(items)
    if unmarked:
        raise pytest.UsageError(
            "tests that need mlir-opt must carry @pytest.mark.mlir: " + ", ".join(unmarked)
        )
