"""The notebooks under notebooks/, run top to bottom in a real Jupyter kernel that imports
this checkout's packages (not whichever copy is installed), each at most once per session."""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def checkout_environment() -> dict[str, str]:
    """The environment with this checkout first on the kernel's import path."""
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


@functools.cache
def executed(path: Path) -> Any:
    """``path`` executed (outputs and widget state stored), as an nbformat notebook."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": path.parent}}
    )
    client.execute(env=checkout_environment())
    return notebook


def draws_a_picture(source: str) -> bool:
    """The cell ends with an expression that calls a ``viz.plot_*`` function."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    if not body or not isinstance(body[-1], ast.Expr) or not isinstance(body[-1].value, ast.Call):
        return False
    called = body[-1].value.func
    return isinstance(called, ast.Attribute) and called.attr.startswith("plot_")
