"""Loop verdicts, the dependence graph and its exports, the report on the command line, and
what happens when the analysis cannot decide (budget, semi-affine subscripts)."""

from __future__ import annotations

import json
import warnings

import networkx as nx
import pytest
from conftest import CORPUS
from dep_oracle import memory_dependences, trace

import affine
from affine.ir.core import Value
from poly.deps import UNKNOWN, AnalysisWarning, DependenceAnalysis
from poly.flow import FlowAnalysis
from poly.graph import dependence_graph, to_dot, to_json
from transforms.cli import main

KERNELS = CORPUS / "kernels"


def loops_by_line(analysis: FlowAnalysis) -> dict[int, object]:
    return {info.loop.op.loc.line: info for info in analysis.loops()}


def test_gemm_loops() -> None:
    # gemm: C[i][j] *= beta; C[i][j] += alpha * A[i][k] * B[k][j] for k. i and j carry
    # nothing; k carries only the reduction on C[i][j].
    analysis = FlowAnalysis(affine.parse((KERNELS / "gemm.mlir").read_text(), "gemm.mlir"))
    loops = loops_by_line(analysis)
    assert loops[6].parallel and loops[7].parallel and loops[13].parallel
    assert not loops[12].parallel and loops[12].reduction_only


def test_stencil_time_loop_is_sequential() -> None:
    text = (CORPUS / "deps" / "jacobi_1d.mlir").read_text()
    loops = loops_by_line(FlowAnalysis(affine.parse(text)))
    assert not loops[3].parallel and not loops[3].reduction_only  # t: real flow of values
    assert loops[4].parallel and loops[12].parallel


def test_iter_args_reduction_loops() -> None:
    text = (KERNELS / "iter_args_reduction.mlir").read_text()
    infos = FlowAnalysis(affine.parse(text)).loops()
    with_iter_args = [i for i in infos if i.iter_args_reductions]
    assert with_iter_args and all(not i.parallel and i.reduction_only for i in with_iter_args)


def test_graph_levels_and_exports() -> None:
    analysis = FlowAnalysis(affine.parse((KERNELS / "two_mm.mlir").read_text(), "two_mm.mlir"))
    g = dependence_graph(analysis)
    assert isinstance(g, nx.MultiDiGraph)
    assert g.number_of_nodes() == len(analysis.model.accesses)
    assert g.number_of_edges() == len(analysis.memory)
    kinds = {d["kind"] for _, _, d in g.edges(data=True)}
    assert kinds <= {"RAW", "WAR", "WAW"} and "RAW" in kinds
    nests = dependence_graph(analysis, "nest")
    assert 1 < nests.number_of_nodes() < g.number_of_nodes()
    # the producer nest of tmp feeds the consumer nest: a RAW edge between two nests
    assert any(d["kind"] == "RAW" and u != v for u, v, d in nests.edges(data=True))
    data = to_json(g)
    assert json.loads(json.dumps(data))["multigraph"] is True
    dot = to_dot(dependence_graph(analysis, "statement"))
    assert dot.startswith("digraph dependences {") and "->" in dot


def test_value_based_is_a_subset_of_memory_based() -> None:
    text = (KERNELS / "jacobi_2d.mlir").read_text()
    analysis = FlowAnalysis(affine.parse(text))
    memory = {(id(e.source), id(e.target), e.kind): e for e in analysis.memory}
    for e in analysis.value:
        m = memory[(id(e.source), id(e.target), e.kind)]
        assert e.relation.is_subset(m.relation)


def test_report_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(KERNELS / "gemm.mlir"), "--dependence-report=json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"nodes", "edges", "loops"} <= report.keys() and report["value_based"] is True
    assert sum(loop["parallel"] for loop in report["loops"]) == 3
    assert main([str(KERNELS / "gemm.mlir"), "--dependence-report=text"]) == 0
    assert "reduction only" in capsys.readouterr().out
    assert main([str(KERNELS / "gemm.mlir"), "--dependence-report=yaml"]) == 1
    assert "FORMAT in json, dot, text" in capsys.readouterr().err
    assert main([str(KERNELS / "gemm.mlir"), "--dependence-report=json,access,memory"]) == 0
    memory = json.loads(capsys.readouterr().out)
    assert memory["value_based"] is False and len(memory["edges"]) > len(report["edges"])
    assert main([str(KERNELS / "gemm.mlir"), "--dependence-report=json,nest,values"]) == 1
    assert "DEPENDENCES in value, memory; got 'json,nest,values'" in capsys.readouterr().err


def test_budget_gives_unknown_never_no() -> None:
    module = affine.parse((KERNELS / "seidel_2d.mlir").read_text())
    with pytest.warns(AnalysisWarning):
        analysis = DependenceAnalysis(module, max_operations=1)
        results = list(analysis.all_checks())
    same_memref_with_write = [
        r
        for r in results
        if r.source.memref is r.target.memref and (r.source.is_write or r.target.is_write)
    ]
    assert same_memref_with_write and all(r.status == UNKNOWN for r in same_memref_with_write)
    assert all(r.exists and r.remark_value() == "unknown" for r in same_memref_with_write)
    with pytest.warns(AnalysisWarning):
        flow = FlowAnalysis(module, max_operations=1)
    assert not any(info.parallel for info in flow.loops())  # unknown counts as carried


def test_budget_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(KERNELS / "seidel_2d.mlir")
    assert main([path, "--test-memref-dependence-check=max-operations=1", "-o", "-"]) == 0
    err = capsys.readouterr().err
    assert "= unknown\n" in err
    assert (
        "could not be decided (ISL operations budget (1) exceeded); it is assumed to exist" in err
    )


SEMI = """
func.func @semi(%A: memref<64xf32>, %m: index) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i * symbol(%m) + 1] : memref<64xf32>
    affine.store %v, %A[%i * symbol(%m)] : memref<64xf32>
  }
  return
}
"""


@pytest.mark.parametrize("m", [-1, 0, 1, 2, 3])
def test_semi_affine_subscripts_are_sound(m: int) -> None:
    """For every value of the symbol, each dependence brute force finds is reported, with
    distances inside the reported ones; with the symbol bound, the answer is exact."""
    module = affine.parse(SEMI)
    func = module.functions()[0]
    symbol: Value = func.regions[0].blocks[0].arguments[1]
    found = memory_dependences(trace(module, {symbol: m}))
    approximate = DependenceAnalysis(module)
    assert not all(r.exact for r in approximate.all_checks())
    reported = {(r.source.number, r.target.number, r.depth): r for r in approximate.all_checks()}
    for key, result in found.items():
        r = reported[key]
        assert r.exists
        if r.bounds:
            for (low, high), b in zip(result.bounds(), r.bounds):
                assert (b.low is None or b.low <= low) and (b.high is None or high <= b.high)
    exact = DependenceAnalysis(module, bindings={symbol: m})
    assert all(r.exact for r in exact.all_checks())
    exact_found = {
        (r.source.number, r.target.number, r.depth) for r in exact.all_checks() if r.exists
    }
    assert exact_found == set(found)


def test_distance_sets_are_isl_objects() -> None:
    # The coupled distances of a triangular update, as an ISL set and as text.
    text = (CORPUS / "deps" / "triangular_update.mlir").read_text()
    analysis = DependenceAnalysis(affine.parse(text))
    store, load_i = analysis.model.numbered[2], analysis.model.numbered[0]
    dep = analysis.check(store, load_i, 1)
    assert dep.remark_value() == "[1, 8][1, 8]"
    import islpy as isl

    assert isinstance(dep.distances, isl.Set)
    # coupled: d0 + d1 <= 9 excludes the corner (8, 8) of the box
    assert dep.distances.is_subset(
        isl.Set.read_from_str(dep.distances.get_ctx(), "{ [a, b] : a + b <= 9 }")
    )
    assert "[" in dep.distance_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert analysis.relation(store, load_i, 1) is not None


CALL = """
func.func private @touch(memref<16xf32>)
func.func @calls(%A: memref<16xf32>, %c: f32) {
  affine.for %i = 0 to 16 {
    affine.store %c, %A[%i] : memref<16xf32>
    func.call @touch(%A) : (memref<16xf32>) -> ()
  }
  %k = arith.constant 3 : index
  %idx = arith.muli %k, %k : index
  %v = memref.load %A[%idx] : memref<16xf32>
  return
}
"""


def test_calls_and_non_affine_accesses_touch_the_whole_memref() -> None:
    """A call that takes a memref may read and write all of it; a memref.load with a
    computed index is modelled exactly when the index is affine (here 3 * 3 = 9)."""
    analysis = FlowAnalysis(affine.parse(CALL, "calls.mlir"))
    call_edges = [e for e in analysis.memory if "func.call" in (e.source.op.name, e.target.op.name)]
    kinds = {e.kind for e in call_edges}
    assert {"RAW", "WAR", "WAW"} <= kinds
    assert all(not e.exact for e in call_edges)
    loop = next(info for info in analysis.loops() if info.loop.op.name == "affine.for")
    assert not loop.parallel
    load = next(a for a in analysis.model.accesses if a.op.name == "memref.load")
    assert load.exact and "i0 = 9" in str(load.relation)
