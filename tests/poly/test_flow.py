"""Memory- and value-based dependences of whole scopes, checked against brute force, and
the loop verdicts (parallel, reduction only) they give."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from conftest import CORPUS
from dep_oracle import Trace, flow_dependences, memory_dependences, trace, traced_file
from hypothesis import HealthCheck, given, settings
from nestgen import nests

import affine
from affine.ir.core import Module, Value
from poly.deps import AnalysisWarning
from poly.flow import RAW, FlowAnalysis

CORPUS = CORPUS
NESTS = sorted((CORPUS / "deps").glob("*.mlir")) + sorted((CORPUS / "kernels").glob("*.mlir"))


def edge_depths(edges, value_based_raw_only: bool = False):
    """``(I, J, depth) -> per-loop (low, high)`` over numbered accesses, from edges."""
    found: dict[tuple[int, int, int], list[tuple[int | None, int | None]] | None] = {}
    for e in edges:
        if e.source.number is None or e.target.number is None:
            continue
        if value_based_raw_only and e.kind != RAW:
            continue
        n = len(e.common)
        depths = [k + 1 for k in e.carried] + ([n + 1] if e.loop_independent else [])
        for depth in depths:
            from poly.deps import bound, ordering_set

            if e.distances is None:  # unknown (the budget ran out): assumed at every depth
                found[(e.source.number, e.target.number, depth)] = None
                continue
            at = e.distances.intersect(ordering_set(e.source.statement.scope.model, n, depth))
            bounds = [bound(at, k) for k in range(n)]
            found[(e.source.number, e.target.number, depth)] = [(b.low, b.high) for b in bounds]
    return found


def oracle_depths(results):
    return {key: r.bounds() for key, r in results.items()}


def check(module: Module, bindings: dict[Value, int], tr: Trace | str) -> None:
    if isinstance(tr, str):
        pytest.skip(tr)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AnalysisWarning)
        analysis = FlowAnalysis(module, bindings=bindings)
    memory = oracle_depths(memory_dependences(tr))
    if any("every pair" in str(w.message) for w in caught):
        # The budget ran out: the fallback must still contain every real dependence.
        assert memory.keys() <= edge_depths(analysis.memory).keys()
        return
    assert edge_depths(analysis.memory) == memory
    flow = oracle_depths(flow_dependences(tr))
    if caught:  # value-based fell back to memory-based dependences: a superset
        assert flow.keys() <= edge_depths(analysis.value, value_based_raw_only=True).keys()
        return
    assert edge_depths(analysis.value, value_based_raw_only=True) == flow


@pytest.mark.parametrize("path", NESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scope_dependences_equal_brute_force(path: Path) -> None:
    check(*traced_file(str(path)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_nests(nest) -> None:
    module = affine.parse(nest.text, "nest.mlir")
    check(module, {}, trace(module))


CONDITIONAL = """
func.func @f(%B: memref<10xf32>, %C: memref<10xf32>, %P: memref<10xi1>) {{
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 10 {{
    affine.store %one, %B[%i] : memref<10xf32>
    %p = affine.load %P[%i] : memref<10xi1>
    {open}
    affine.store %two, %B[%i] : memref<10xf32>
    {close}
    %v = affine.load %B[%i] : memref<10xf32>
    affine.store %v, %C[%i] : memref<10xf32>
  }}
  return
}}
"""


def _instances(relation) -> int:
    points: list[object] = []
    relation.domain().foreach_point(points.append)
    return len(points)


# Accesses A0 store B[i], A2 store B[i] (maybe under a condition), A3 load B[i]: per pair
# reaching A3, how many instances of its source reach it. The second store kills the
# first's value only where it surely runs: under an scf.if (data) or an scf.for (of trips
# the model does not bound) it is a may-write; an affine.if on the IV runs it at i >= 5.
@pytest.mark.parametrize(
    ("open_", "close", "reaching"),
    [
        ("", "", {(2, 3): 10}),
        ("scf.if %p {", "}", {(0, 3): 10, (2, 3): 10}),
        (
            "%c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
            "    scf.for %k = %c0 to %c1 step %c1 {",
            "}",
            {(0, 3): 10, (2, 3): 10},
        ),
        ("affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i) {", "}", {(0, 3): 5, (2, 3): 5}),
    ],
    ids=["unconditional", "scf.if", "scf.for", "affine.if"],
)
def test_a_store_that_may_not_run_kills_no_earlier_value(open_, close, reaching) -> None:
    module = affine.parse(CONDITIONAL.format(open=open_, close=close), "cond.mlir")
    flows = {
        (e.source.number, e.target.number): _instances(e.relation)
        for e in FlowAnalysis(module).value
        if e.kind == RAW and e.target.number == 3
    }
    assert flows == reaching


def test_a_store_outside_loops_kills_the_value_before_it() -> None:
    # ops directly in the function body run once: their writes are must-writes
    text = """
func.func @f(%A: memref<3xf32>) {
  %v1 = affine.load %A[0] : memref<3xf32>
  affine.store %v1, %A[0] : memref<3xf32>
  %v2 = affine.load %A[0] : memref<3xf32>
  affine.store %v2, %A[0] : memref<3xf32>
  %v3 = affine.load %A[0] : memref<3xf32>
  return
}
"""
    flows = {
        (e.source.number, e.target.number)
        for e in FlowAnalysis(affine.parse(text, "top.mlir")).value
        if e.kind == RAW
    }
    assert flows == {(1, 2), (3, 4)}
