"""An import scanner for the layering rules of docs/architecture.md.

Every import of a library module counts, at the top of a file or inside a function, except
those under ``if TYPE_CHECKING:`` (they never run). The rules:

* a module imports nothing from a higher layer, except inside a function with a comment
  on the import line or the line above it that says the import is lazy for start-up cost
  (``# lazy: start-up cost (numpy)``);
* an import inside a function is such a documented lazy import (any other import belongs
  at the top of the file);
* the modules do not import each other in a cycle (documented lazy imports left out).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

LAZY_MARK = "lazy"
STARTUP_MARK = "start-up"


@dataclass(frozen=True)
class Import:
    """One imported library module, where the import statement is and how it runs."""

    source: str  # importing module
    target: str  # imported module
    line: int
    in_function: bool
    lazy: bool  # documented as lazy for start-up cost


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Import statements with whether they are inside a function (TYPE_CHECKING skipped)."""

    def visit(
        node: ast.AST, in_function: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for orelse in child.orelse:
                    yield from visit(orelse, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            inner = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            yield from visit(child, inner)

    yield from visit(tree, False)


def scan(root: Path, packages: Sequence[str]) -> list[Import]:
    """Every import of a module of ``packages`` by a module of ``packages`` under ``root``."""
    paths = [p for package in packages for p in sorted((root / package).rglob("*.py"))]
    modules = {module_name(root, p) for p in paths}
    found = []
    for path in paths:
        source = module_name(root, path)
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node, in_function in _statements(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            nearby = " ".join(lines[max(0, node.lineno - 2) : node.lineno])
            lazy = in_function and LAZY_MARK in nearby and STARTUP_MARK in nearby
            for target in dict.fromkeys(targets):
                if target in modules:
                    found.append(Import(source, target, node.lineno, in_function, lazy))
    return found


def layer_of(module: str, layers: Sequence[str]) -> int:
    """The index of the first layer (a package or module name) that holds ``module``."""
    for k, layer in enumerate(layers):
        if module == layer or module.startswith(layer + "."):
            return k
    raise ValueError(f"{module} is in no layer")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def violations(root: Path, packages: Sequence[str], layers: Sequence[str]) -> list[str]:
    """What breaks the rules, one line each (``module:line: ...``); empty when all holds."""
    imports = scan(root, packages)
    problems = []
    graph: dict[str, set[str]] = {}
    for imp in imports:
        where = f"{imp.source}:{imp.line}"
        if imp.in_function and not imp.lazy:
            problems.append(
                f"{where}: import of {imp.target} inside a function not documented as lazy for start-up cost"
            )
        if layer_of(imp.target, layers) > layer_of(imp.source, layers) and not imp.lazy:
            problems.append(f"{where}: {imp.source} imports {imp.target} from a higher layer")
        if not imp.lazy and imp.target != imp.source:
            graph.setdefault(imp.source, set()).add(imp.target)
    for cycle in _cycles(graph):
        problems.append("import cycle: " + " -> ".join(cycle))
    return problems
