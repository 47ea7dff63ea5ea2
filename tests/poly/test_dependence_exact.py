"""Dependence analysis against brute force: run each nest at small sizes, record every
element touched, and compare every remark (pair, depth, exact distance bounds)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from conftest import CORPUS
from dep_oracle import (
    bind_index_arguments,
    expected_remarks,
    index_argument_count,
    index_arguments,
    remarks_over_values,
    trace,
    traced_file,
)
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


# Sizes tried for the index arguments of files with symbolic sizes.
SIZES = range(10)
SYMBOLIC = [p for p in NESTS if "oracle-args" in p.read_text(encoding="utf-8")]


def exact_remarks(module: Module, text: str) -> dict[tuple[int, int, int], str]:
    """The brute-force remarks of a corpus file; for one with symbolic sizes, those of
    every size in :data:`SIZES` together (a dependence exists when it exists at some
    size, with the hull of the distances)."""
    if not index_arguments(module, text):
        return {(i, j, d): v for i, j, d, v in expected_remarks(trace(module))}
    runs = [
        bind_index_arguments(module, values)
        for values in itertools.product(SIZES, repeat=index_argument_count(module))
    ]
    return remarks_over_values(module, runs)


@pytest.mark.parametrize("path", SYMBOLIC, ids=lambda p: p.name)
def test_symbolic_remarks_equal_brute_force_over_sizes(path: Path) -> None:
    """The answer for every size at once is the brute-force answer over many sizes: a
    "false" only where no size has the dependence, distances exactly the hull."""
    text = path.read_text(encoding="utf-8")
    module = affine.parse(text, str(path))
    assert analysis_remarks(module, {}) == exact_remarks(module, text)


@pytest.mark.mlir
@pytest.mark.parametrize("path", NESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_remarks_match_mlir_opt_or_are_exact(mlir_opt: str, path: Path) -> None:
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
    differences = [k for k in ours if ours[k] != theirs[k]]
    # Where we differ from mlir-opt, ours is the brute-force answer.
    if differences:
        exact = exact_remarks(module, text)
        assert all(ours[k] == exact[k] for k in differences), {
            k: (ours[k], theirs[k], exact[k]) for k in differences if ours[k] != exact[k]
        }


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_nests_equal_brute_force(nest) -> None:
    module = affine.parse(nest.text, "nest.mlir")
    expected = {(i, j, d): value for i, j, d, value in expected_remarks(trace(module))}
    assert analysis_remarks(module, {}) == expected
