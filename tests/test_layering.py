"""The layering rules of docs/architecture.md, checked on the sources and at run time."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from import_layers import violations

ROOT = Path(__file__).resolve().parents[1]

# Lowest first: a module may import modules of its own layer and of the layers before it.
LAYERS = (
    "affine.errors",  # PolyError, the root of every exception: imports nothing
    "affine.math",
    "affine.ir",
    "affine.syntax",
    "affine.dialects",
    "affine.analysis",
    "affine.exec",
    "affine",  # the facade: affine/__init__.py and affine/ops.py
    "poly",
    "transforms",
)


def test_library_keeps_its_layers() -> None:
    """No upward import, no import inside a function that is not documented as lazy for
    start-up cost, and no import cycle, counting imports inside functions."""
    assert violations(ROOT, ["affine", "poly", "transforms"], LAYERS) == []


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_checker_reports_an_upward_import(tmp_path: Path) -> None:
    _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low/__init__.py": "",
            "pkg/low/a.py": "def f():\n    from pkg.high import b\n    return b\n",
            "pkg/high/__init__.py": "",
            "pkg/high/b.py": "from pkg.low import a\n",
        },
    )
    found = violations(tmp_path, ["pkg"], ("pkg.low", "pkg.high", "pkg"))
    assert found == [
        "pkg.low.a:2: import of pkg.high.b inside a function not documented as lazy for start-up cost",
        "pkg.low.a:2: pkg.low.a imports pkg.high.b from a higher layer",
        "import cycle: pkg.high.b -> pkg.low.a",
    ]


def test_checker_accepts_documented_lazy_imports(tmp_path: Path) -> None:
    _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg import high\n"
                "def f():\n"
                "    from pkg.high import g  # lazy: start-up cost (numpy)\n"
                "    return g\n"
            ),
            "pkg/high.py": "from pkg.low import f\ng = f\n",
        },
    )
    assert violations(tmp_path, ["pkg"], ("pkg.low", "pkg.high", "pkg")) == []


def test_checker_reports_a_cycle_within_a_layer(tmp_path: Path) -> None:
    _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "import pkg.b\n",
            "pkg/b.py": "from pkg import a\n",
        },
    )
    assert violations(tmp_path, ["pkg"], ("pkg",)) == ["import cycle: pkg.a -> pkg.b"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", ["affine", "transforms"])
def test_only_poly_imports_isl_and_networkx(package: str) -> None:
    offenders = {
        str(p.relative_to(ROOT)): sorted(_imports(p) & {"islpy", "networkx"})
        for p in (ROOT / package).rglob("*.py")
        if _imports(p) & {"islpy", "networkx"}
    }
    assert offenders == {}


@pytest.mark.parametrize(
    "code",
    [
        "import affine; affine.parse('func.func @f() { return }')",
        "import transforms.cli as c; c.process('func.func @f() { return }', 'x', c.Options())",
    ],
)
def test_startup_does_not_load_heavy_modules(code: str) -> None:
    probe = (
        code
        + "; import sys; print(sorted(m for m in ('sympy', 'islpy', 'networkx', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


FACADES = {"affine", "affine.ops", "poly", "transforms"}


def _library_imports(code: str) -> set[str]:
    """The library modules ``code`` imports (names imported from a facade count as the
    facade)."""
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return {name for name in found if name.split(".")[0] in {"affine", "poly", "transforms"}}


def _snippets() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippets = {
        f"README.md python block {k}": block
        for k, block in enumerate(re.findall(r"```python\n(.*?)```", readme, re.S))
    }
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for k, block in enumerate(re.findall(r"```python\n(.*?)```", architecture, re.S)):
        snippets[f"docs/architecture.md python block {k}"] = block
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = [
            "".join(cell["source"])
            for cell in cells
            if cell["cell_type"] == "code"
            and not "".join(cell["source"]).lstrip().startswith(("%", "!"))
        ]
        snippets[path.name] = "\n".join(code)
    return snippets


@pytest.mark.parametrize("name", sorted(_snippets()))
def test_docs_and_notebooks_use_only_the_facades(name: str) -> None:
    assert _library_imports(_snippets()[name]) <= FACADES


def test_only_poly_space_spells_isl_names() -> None:
    """ISL objects are read from text (where names are spelled) only in poly/space.py."""
    offenders = [
        str(path.relative_to(ROOT))
        for package in ("affine", "poly", "transforms")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "read_from_str" in path.read_text(encoding="utf-8") and path.name != "space.py"
    ]
    assert offenders == []
