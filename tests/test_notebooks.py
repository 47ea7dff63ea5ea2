"""Every notebook under notebooks/ runs top to bottom in a real Jupyter kernel, the cells that
end with a picture show it as an image, and each agrees with its text source (a jupytext
``py:percent`` file beside it, the one to review and edit: ``jupytext --sync
notebooks/NAME.ipynb`` after editing either)."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_runner import NOTEBOOKS, draws_a_picture, executed

nbformat = pytest.importorskip("nbformat", reason="the test extra installs nbformat")
nbclient = pytest.importorskip("nbclient", reason="the test extra installs nbclient")
jupytext = pytest.importorskip("jupytext", reason="the test extra installs jupytext")


def test_there_is_a_tour() -> None:
    assert any(path.name == "tour.ipynb" for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path) -> None:
    notebook = executed(path)
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_pictures_are_images(path: Path) -> None:
    cells = [c for c in executed(path).cells if c.cell_type == "code" and draws_a_picture(c.source)]
    for cell in cells:
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(images) == 1, cell.source
        assert len(images[0]["data"]["image/png"]) > 10_000  # base64 of a real picture


def test_the_pictures_notebook_draws_every_kind_of_picture() -> None:
    viz = pytest.importorskip("poly.viz", reason="the test extra installs matplotlib")
    (path,) = [p for p in NOTEBOOKS if p.name == "pictures.ipynb"]
    sources = [c.source for c in executed(path).cells]
    kinds = {name for name in dir(viz) if name.startswith("plot_")}
    assert {name for name in kinds if any(f"viz.{name}(" in s for s in sources)} == kinds
