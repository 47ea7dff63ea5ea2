"""Shared fixtures: the real mlir-opt / mlir-runner (skipped with a reason when missing)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ROOT = TESTS.parent
CORPUS = TESTS / "corpus"

_LLVM_BIN = Path("/usr/lib/llvm-22/bin")


def find_tool(name: str) -> str | None:
    """``name`` from $POLY_MLIR_BIN, the llvm-22 bin folder, or PATH."""
    env = os.environ.get("POLY_MLIR_BIN")
    for folder in ([Path(env)] if env else []) + [_LLVM_BIN]:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(f"{name}-22") or shutil.which(name)


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


def run_mlir_opt(tool: str, text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [tool, "--allow-unregistered-dialect", *args, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
