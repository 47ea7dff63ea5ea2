"""Dependence analysis against brute force: run each nest at small sizes, record every
element touched, and compare every remark (pair, depth, exact distance bounds)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CORPUS
from dep_oracle import expected_remarks, index_arguments, trace, traced_file
from hypothesis import HealthCheck, given, settings
from nestgen import nests

import affine
from affine.ir.core import Module, Value
from poly.deps import DependenceAnalysis

CORPUS = CORPUS
NESTS = sorted((CORPUS / "deps").glob("*.mlir")) + sorted((CORPUS / "kernels").glob("*.mlir"))


def analysis_remarks(module: Module, bindings: dict[Value, int]) -> dict[tuple[int, int, int], str]:
    analysis = DependenceAnalysis(module, bindings=bindings)
    return {
        (d.source.number, d.target.number, d.depth): d.remark_value() for d in analysis.all_checks()
    }


def test_enough_nests() -> None:
    assert len(NESTS) >= 30


@pytest.mark.parametrize("path", NESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_remarks_equal_brute_force(path: Path) -> None:
    module, bindings, tr = traced_file(str(path))
    if isinstance(tr, str):
        pytest.skip(tr)
    expected = {(i, j, d): value for i, j, d, value in expected_remarks(tr)}
    assert analysis_remarks(module, bindings) == expected


def _interval_contains(outer: str, inner: str) -> bool:
    """``[a, b][c, d]`` contains ``[e, f][g, h]`` component-wise (``±inf`` allowed)."""

    def parse(text: str) -> list[tuple[float, float]]:
        pairs = re.findall(r"\[([^,\]]+), ([^\]]+)\]", text)
        return [
            (float(lo.replace("inf", "Infinity")), float(hi.replace("inf", "Infinity")))
            for lo, hi in pairs
        ]

    a, b = parse(outer), parse(inner)
    return len(a) == len(b) and all(x0 <= y0 and y1 <= x1 for (x0, x1), (y0, y1) in zip(a, b))


def at_least_as_precise(ours: str, theirs: str) -> bool:
    """Our answer is never looser than mlir-opt's: "false" beats anything, equal answers
    are fine, and our distance box lies inside mlir-opt's."""
    if ours == theirs or ours == "false":
        return True
    if ours.startswith("[") and theirs.startswith("["):
        return _interval_contains(theirs, ours)
    return False


@pytest.mark.mlir
@pytest.mark.parametrize("path", NESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_remarks_match_mlir_opt_or_are_tighter(mlir_opt: str, path: Path) -> None:
    from conftest import run_mlir_opt

    text = path.read_text()
    result = run_mlir_opt(
        mlir_opt, text, "-test-memref-dependence-check", "--mlir-print-op-on-diagnostic=false"
    )
    assert result.returncode == 0, result.stderr
    theirs = {
        (int(m[1]), int(m[2]), int(m[3])): m[4].strip()
        for m in re.finditer(
            r"remark: dependence from (\d+) to (\d+) at depth (\d+) = (.*)", result.stderr
        )
    }
    module = affine.parse(text, str(path))
    ours = analysis_remarks(module, {})
    assert ours.keys() == theirs.keys()
    differences = {k: (ours[k], theirs[k]) for k in ours if ours[k] != theirs[k]}
    looser = {k: v for k, v in differences.items() if not at_least_as_precise(*v)}
    # Every difference is checked by the brute-force run; where none can run (symbolic
    # sizes) our answer must be at least as tight as mlir-opt's.
    if not differences:
        return
    if index_arguments(module, text):
        assert not looser, looser
        return
    exact = {(i, j, d): v for i, j, d, v in expected_remarks(trace(module))}
    assert all(ours[k] == exact[k] for k in differences), differences


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_nests_equal_brute_force(nest) -> None:
    module = affine.parse(nest.text, "nest.mlir")
    expected = {(i, j, d): value for i, j, d, value in expected_remarks(trace(module))}
    assert analysis_remarks(module, {}) == expected
