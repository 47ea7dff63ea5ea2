"""The layering rules of docs/architecture.md, checked on the sources and at run time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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


def test_affine_does_not_import_poly_or_transforms() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "affine").rglob("*.py")
        if _imports(p) & {"poly", "transforms"}
    ]
    assert offenders == []


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
