"""Reports in the source's names: loops by their induction variable and position, memrefs
by their SSA name; the text report grouped by access, statement or nest; value-based edges
with value-based distances; distance sets that per-loop bounds do not describe, exactly."""

from __future__ import annotations

import json

import pytest

import affine
import poly
from poly.graph import dependence_graph, report, report_text, to_dot
from transforms.analysis_passes import dependence_report
from transforms.registry import PassContext

# %A[%i + %j] is read and written: the distances are (d, -d), not a box
DIAGONAL = """\
func.func @k(%A: memref<128xf32>, %B: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i + %j] : memref<128xf32>
      affine.store %v, %A[%i + %j] : memref<128xf32>
    }
  }
  affine.for %t = 0 to 8 {
    %w = affine.load %A[%t] : memref<128xf32>
    affine.store %w, %B[%t] : memref<8xf32>
  }
  return
}
"""


@pytest.fixture(scope="module")
def analysis() -> poly.FlowAnalysis:
    module = affine.parse(DIAGONAL, "k.mlir")
    return poly.FlowAnalysis(module.functions()[0])


ACCESS_REPORT = """\
accesses:
  A0: affine.load read %A at k.mlir:4:12
  A1: affine.store write %A at k.mlir:5:7
  A2: affine.load read %A at k.mlir:9:10
  A3: affine.store write %B at k.mlir:10:5
dependences (memory-based):
  WAR A0 -> A1 on %A: distance [0, 7][-7, 0] direction (<=, >=) carried by %i at k.mlir:2:3
    exact distances: { [i0_0, i1_0 = -i0_0] : 0 <= i0_0 <= 7 }
  RAW A1 -> A0 on %A: distance [1, 7][-7, -1] direction (<, >) carried by %i at k.mlir:2:3
    exact distances: { [i0_0, i1_0 = -i0_0] : 0 < i0_0 <= 7 }
  RAW A1 -> A2 on %A: distance () direction () carried by no loop
  WAW A1 -> A1 on %A: distance [1, 7][-7, -1] direction (<, >) carried by %i at k.mlir:2:3
    exact distances: { [i0_0, i1_0 = -i0_0] : 0 < i0_0 <= 7 }
dependences (value-based):
  WAR A0 -> A1 on %A: distance [0, 0][0, 0] direction (=, =) carried by no loop
  RAW A1 -> A0 on %A: distance [1, 1][-1, -1] direction (<, >) carried by %i at k.mlir:2:3
  RAW A1 -> A2 on %A: distance () direction () carried by no loop
  WAW A1 -> A1 on %A: distance [1, 1][-1, -1] direction (<, >) carried by %i at k.mlir:2:3
loops:
  affine.for %i at k.mlir:2:3: sequential (3 dependences carried)
  affine.for %j at k.mlir:3:5: parallel
  affine.for %t at k.mlir:8:3: parallel
"""


def test_access_report_names_loops_and_memrefs_as_written(analysis: poly.FlowAnalysis) -> None:
    assert report_text(analysis, "access") == ACCESS_REPORT


def test_the_three_groupings_differ(analysis: poly.FlowAnalysis) -> None:
    statement = report_text(analysis, "statement")
    nest = report_text(analysis, "nest")
    assert statement.startswith(
        "statements:\n  S0: affine.load at k.mlir:4:12\n  S1: affine.store at k.mlir:5:7\n"
    )
    assert "  RAW S1 -> S2 on %A: distance () direction () carried by no loop\n" in statement
    assert nest.startswith(
        "nests:\n  N0: affine.for %i at k.mlir:2:3\n  N1: affine.for %t at k.mlir:8:3\n"
        "dependences (memory-based):\n"
        "  RAW N0 -> N0 on %A: distance [1, 7][-7, -1] direction (<, >) carried by %i at "
        "k.mlir:2:3\n"
    )
    assert "  RAW N0 -> N1 on %A: distance () direction () carried by no loop\n" in nest
    assert len({report_text(analysis, level) for level in ("access", "statement", "nest")}) == 3


def test_the_command_line_report_honours_the_level() -> None:
    module = affine.parse(DIAGONAL, "k.mlir")
    for level in ("access", "statement", "nest"):
        text = "".join(dependence_report(module, f"text,{level}", PassContext("k.mlir")))
        assert text.startswith(
            {"access": "accesses:", "statement": "statements:"}.get(level, "nests:")
        )
    assert "".join(dependence_report(module, "text", PassContext("k.mlir"))) == ACCESS_REPORT


def test_json_and_dot_use_source_names(analysis: poly.FlowAnalysis) -> None:
    data = json.loads(json.dumps(report(analysis, value_based=False)))
    nodes = {n["id"]: n for n in data["nodes"]}
    assert (nodes["A3"]["memref"], nodes["A3"]["isl_tuple"]) == ("%B", "M1")
    raw = next(e for e in data["edges"] if e["kind"] == "RAW" and e["carried_by"])
    assert raw["memref"] == "%A" and raw["carried_by"] == ["%i at k.mlir:2:3"]
    assert raw["distance_set"] == "{ [i0_0, i1_0 = -i0_0] : 0 < i0_0 <= 7 }"
    value_raw = next(e for e in report(analysis)["edges"] if e["kind"] == "RAW" and e["carried_by"])
    assert (value_raw["distance"], value_raw["distance_set"]) == ("[1, 1][-1, -1]", None)
    assert [(loop["iv"], loop["location"]) for loop in data["loops"]] == [
        ("%i", "k.mlir:2:3"),
        ("%j", "k.mlir:3:5"),
        ("%t", "k.mlir:8:3"),
    ]
    dot = to_dot(dependence_graph(analysis))
    assert '"A3" [label="A3: affine.store write %B\\nk.mlir:10:5"];' in dot
    assert '"A1" -> "A0" [label="RAW %A d1 [1, 7][-7, -1]", style=solid];' in dot


def test_reprs_use_source_names(analysis: poly.FlowAnalysis) -> None:
    edge = next(e for e in analysis.memory if e.kind == "RAW" and e.carried)
    assert repr(edge.source) == "<Access #1 write %A by affine.store at k.mlir:5:7>"
    assert repr(edge) == (
        "<RAW (memory) on %A: affine.store at k.mlir:5:7 -> affine.load at k.mlir:4:12 (<, >)>"
    )
    assert repr(edge.common[1]) == "<LoopRef %j at k.mlir:3:5>"
