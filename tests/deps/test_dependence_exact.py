"""Dependence analysis against brute force: run each nest at small sizes, record every
element touched, and compare every remark (pair, depth, exact distance bounds)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dep_oracle import expected_remarks, trace

import affine
from affine.ir import Module, Value
from affine.types import IndexType
from poly.deps import DependenceAnalysis

CORPUS = Path(__file__).parent.parent / "corpus"
NESTS = sorted((CORPUS / "deps").glob("*.mlir")) + sorted((CORPUS / "kernels").glob("*.mlir"))


def index_arguments(module: Module, text: str) -> dict[Value, int]:
    """``// oracle-args: 7 5`` binds the index arguments of each function, in order."""
    found = re.search(r"// oracle-args: (.*)", text)
    if not found:
        return {}
    values = [int(x) for x in found.group(1).split()]
    bindings: dict[Value, int] = {}
    for op in module.operation.walk():
        if op.name == "func.func":
            args = [a for a in op.regions[0].blocks[0].arguments if isinstance(a.type, IndexType)]
            bindings.update(zip(args, values))
    return bindings


def analysis_remarks(module: Module, bindings: dict[Value, int]) -> dict[tuple[int, int, int], str]:
    analysis = DependenceAnalysis(module, bindings=bindings)
    return {
        (d.source.number, d.target.number, d.depth): d.remark_value() for d in analysis.all_checks()
    }


def test_enough_nests() -> None:
    assert len(NESTS) >= 30


@pytest.mark.parametrize("path", NESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_remarks_equal_brute_force(path: Path) -> None:
    text = path.read_text()
    module = affine.parse(text, str(path))
    bindings = index_arguments(module, text)
    try:
        tr = trace(module, bindings, max_instances=150_000)
    except ValueError as e:
        pytest.skip(str(e))
    expected = {(i, j, d): value for i, j, d, value in expected_remarks(tr)}
    assert analysis_remarks(module, bindings) == expected
