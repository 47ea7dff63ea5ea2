"""README.md states two set-up commands; CI runs the second one verbatim and the first one
must work on the bundled example."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = re.findall(r"```sh\n(python3 -m pip install[^\n]*)\n```", README)


def test_readme_has_the_two_setup_commands() -> None:
    assert len(COMMANDS) == 2, COMMANDS
    main_job, tests = COMMANDS
    assert "examples/" in main_job and "poly-opt" in main_job
    assert "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert COMMANDS[1] in ci.splitlines()
    assert "apt-get install -y mlir-22-tools" in ci


def test_main_job_runs_on_the_bundled_example() -> None:
    poly_opt_part = COMMANDS[0].split("&&", 1)[1].split()
    assert poly_opt_part[0] == "poly-opt"
    result = subprocess.run(
        [sys.executable, "-m", "transforms.cli", *poly_opt_part[1:]],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "func.func @multiply" in result.stdout and "affine.parallel" in result.stdout
    assert "remark: loop not parallelized: it carries the RAW dependence" in result.stderr


def test_python_snippet_runs() -> None:
    snippet = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    result = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "[14, 7]" in result.stdout


def test_architecture_walkthrough_runs() -> None:
    """The kernel followed through the layers in docs/architecture.md."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    snippet = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    result = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "['RAW', 'WAR', 'WAW']" in result.stdout
    assert "affine.for %arg3 = 0 to %dim step 32" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1] == "equivalent"
