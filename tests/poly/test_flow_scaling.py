"""Whole-function dependence analysis on many nests: the pairs of accesses handed to ISL grow
linearly with the nests for value-based dependences (each nest's window reaches back only
to the nests whose writes cover it), the answers equal brute force, and the JSON report is
value-based by default, written a line per node, edge and loop, and reads back as the
graph."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from conftest import ROOT
from dep_oracle import trace
from test_flow import check

import affine
from poly.flow import FlowAnalysis
from poly.graph import dependence_graph, report_chunks
from transforms.cli import main
from transforms.registry import PassContext


def _copy_chain(nests: int, size: int = 200) -> str:
    """``benchmarks/copy_chain.py``'s function of ``nests`` copy nests."""
    spec = importlib.util.spec_from_file_location(
        "copy_chain", ROOT / "benchmarks" / "copy_chain.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.copy_chain(nests, size)


def _pair_tests(nests: int, memory_based: bool) -> int:
    analysis = FlowAnalysis(affine.parse(_copy_chain(nests)), memory_based=memory_based)
    return analysis.pair_tests


def test_value_based_pair_tests_grow_linearly() -> None:
    # the generator's offsets repeat every 12 nests: each 12 more nests add the same pairs
    twelve, twenty_four, thirty_six = (_pair_tests(n, memory_based=False) for n in (12, 24, 36))
    assert thirty_six - twenty_four == twenty_four - twelve
    # memory-based dependences pair every earlier nest of a buffer with every later one
    memory = [_pair_tests(n, memory_based=True) for n in (12, 24, 36)]
    assert memory[2] - memory[1] > 1.5 * (memory[1] - memory[0])


def test_memory_based_pairs_are_tested_only_on_request() -> None:
    analysis = FlowAnalysis(affine.parse(_copy_chain(12)), memory_based=False)
    before = analysis.pair_tests
    assert len(analysis.memory) > len(analysis.value) and analysis.pair_tests > before


@pytest.mark.parametrize("nests", [4, 9])
def test_copy_chain_dependences_equal_brute_force(nests: int) -> None:
    module = affine.parse(_copy_chain(nests, size=4), "chain.mlir")
    check(module, {}, trace(module))


def test_windows_do_not_change_the_answers() -> None:
    """Memory-based edges computed eagerly and on first use are the same edges."""
    text = _copy_chain(8, size=6)
    eager = FlowAnalysis(affine.parse(text))
    lazy = FlowAnalysis(affine.parse(text), memory_based=False)
    assert [repr(e) for e in eager.memory] == [repr(e) for e in lazy.memory]
    assert [str(e.relation) for e in eager.value] == [str(e.relation) for e in lazy.value]


def test_json_report_reads_back_as_the_graph() -> None:
    analysis = FlowAnalysis(affine.parse(_copy_chain(5, size=6), "chain.mlir"))
    for value_based in (True, False):
        chunks = list(report_chunks(analysis, "access", value_based))
        data = json.loads("".join(chunks))
        graph = dependence_graph(analysis, "access", value_based)
        assert data["value_based"] is value_based
        assert {n.pop("id"): n for n in data["nodes"]} == dict(graph.nodes(data=True))
        edges = [
            (e.pop("source"), e.pop("target"), {**e, "value_based": value_based})
            for e in data["edges"]
        ]
        assert sorted(edges, key=json.dumps) == sorted(graph.edges(data=True), key=json.dumps)
        # one line per node, edge and loop, between the opening line and three closing ones
        count = graph.number_of_nodes() + graph.number_of_edges() + len(data["loops"])
        assert "".join(chunks).count("\n") == count + 7


def test_the_command_line_report_is_value_based_unless_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "chain.mlir"
    source.write_text(_copy_chain(6, size=6))
    analysis = FlowAnalysis(affine.parse(source.read_text(), str(source)))
    output = tmp_path / "report.json"
    assert main([str(source), "--dependence-report=json", "-o", str(output)]) == 0
    value = json.loads(output.read_text())
    assert value["value_based"] and len(value["edges"]) == len(analysis.value)
    assert main([str(source), "--dependence-report=json,nest,memory"]) == 0
    memory = json.loads(capsys.readouterr().out)
    assert not memory["value_based"] and len(memory["edges"]) == len(analysis.memory)
    assert [n["id"] for n in memory["nodes"]] == [f"N{k}" for k in range(6)]


def test_remarks_number_each_function_once_and_print_the_same() -> None:
    module = affine.parse(_copy_chain(3, size=6), "chain.mlir")
    ops = [op for op in module.walk() if op.name in ("affine.load", "affine.store")]
    plain, cached = PassContext(), PassContext()
    with cached.reading_only():
        for op in ops:
            cached.emit(op, "remark", "here")
    for op in ops:
        plain.emit(op, "remark", "here")
    assert [d.render() for d in cached.diagnostics] == [d.render() for d in plain.diagnostics]
    assert (
        "see current operation: %0 = affine.load %arg1[%arg3 + 1, %arg4]"
        in cached.diagnostics[2].render()
    )
