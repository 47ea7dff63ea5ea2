"""Every notebook under notebooks/ runs top to bottom in a real Jupyter kernel, and agrees
with its text source (a jupytext ``py:percent`` file beside it, the one to review and edit:
``jupytext --sync notebooks/NAME.ipynb`` after editing either)."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the test extra installs nbformat")
nbclient = pytest.importorskip("nbclient", reason="the test extra installs nbclient")
jupytext = pytest.importorskip("jupytext", reason="the test extra installs jupytext")

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_is_a_tour() -> None:
    assert any(path.name == "tour.ipynb" for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": path.parent}}
    )
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
    printed = "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
    )
    assert "Traceback" not in printed


def _cells(notebook) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in notebook.cells]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_agrees_with_its_text_source(path: Path) -> None:
    source = path.with_suffix(".py")
    assert source.is_file(), f"{source.name} is missing (jupytext --set-formats ipynb,py:percent)"
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata.get("jupytext", {}).get("formats") == "ipynb,py:percent"
    assert _cells(jupytext.read(source)) == _cells(notebook)
