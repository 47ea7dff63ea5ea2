"""Rich display (poly/display.py): what the HTML of an analysis, a verdict or a schedule
shows is what the object holds, escaped, with the pictures as embedded PNG."""

from __future__ import annotations

import base64
import html
import re

import pytest

pytest.importorskip("matplotlib", reason="the test extra installs matplotlib")

from conftest import ROOT

import affine
import transforms
from poly import DependenceAnalysis, FlowAnalysis, Schedule
from poly.display import table

TAG = re.compile(r"<[^>]*>")
STENCIL = (ROOT / "examples" / "stencil.mlir").read_text(encoding="utf-8")
STORE = "affine.store %s, %A[%i, %j] at stencil.mlir:9:7"
LOAD = "affine.load %A[%i - 1, %j + 1] at stencil.mlir:6:12"


def _cells(markup: str) -> list[list[str]]:
    """The rows of every table, as a browser shows their cells."""
    rows = re.findall(r"<tr>(.*?)</tr>", markup)
    return [
        [html.unescape(TAG.sub("", c)) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r)]
        for r in rows
    ]


def _images(markup: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', markup)]


def _stencil() -> affine.Module:
    return affine.parse(STENCIL, "stencil.mlir")


def test_a_table_escapes_every_cell() -> None:
    markup = table(["<h>"], [("a < b & c",), ('"q"',)])
    assert "<h>" not in markup and "a < b" not in markup
    assert _cells(markup) == [["<h>"], ["a < b & c"], ['"q"']]


def test_a_flow_analysis_shows_its_edges_loops_and_graph() -> None:
    flow = FlowAnalysis(_stencil())
    markup = flow._repr_html_()
    rows = _cells(markup)
    carried = [e for e in flow.memory if e.carried]
    assert len(carried) == 1
    raw = ["RAW", STORE, LOAD, "(<, >) [1, 1][-1, -1]", "%i at stencil.mlir:4:3", "yes"]
    assert raw in rows
    assert len([r for r in rows if r[0] in ("RAW", "WAR", "WAW")]) == len(flow.memory)
    assert ["%i at stencil.mlir:4:3", "sequential", "1", "no"] in rows
    assert ["%j at stencil.mlir:5:5", "parallel", "0", "no"] in rows
    (png,) = _images(markup)
    assert png.startswith(b"\x89PNG") and len(png) > 5000


def test_dependence_checks_show_mlir_opt_s_answers_with_positions() -> None:
    analysis = DependenceAnalysis(_stencil())
    found = [d for d in analysis.all_checks() if d.exists]
    rows = _cells(analysis._repr_html_())[1:]
    assert [r[2:4] for r in rows] == [[str(d.depth), d.remark_value()] for d in found]
    assert [STORE, LOAD, "1", "[1, 1][-1, -1]", ""] in rows
    assert _cells(found[0]._repr_html_())[1][2:4] == [str(found[0].depth), found[0].remark_value()]


def test_verdicts_show_status_reason_and_violation() -> None:
    s = Schedule.of(_stencil().functions()[0])
    illegal = s.interchange("%i", "%j").check()
    markup = illegal._repr_html_()
    assert '<b style="color: #c62828">illegal</b>' in markup
    assert html.escape(illegal.reason) in markup
    rows = dict(r for r in _cells(markup) if len(r) == 2)
    assert rows["source"] == STORE
    assert rows["target"] == LOAD
    assert rows["witness"] == "S0[i = 1, j = 1] and S0[i = 2, j = 0]"
    assert rows["distance"] == "(-1, 1) on %j, %i"
    legal = s.skew("%j", {"%i": 1}).check()
    assert TAG.sub("", legal._repr_html_()) == "legal"


def test_a_legality_verdict_shows_why() -> None:
    from poly.legality import Verdict

    markup = Verdict(False, "a <reason>")._repr_html_()
    assert html.unescape(TAG.sub("", markup)) == "illegal: a <reason>"


def test_a_schedule_shows_statements_map_tree_and_picture() -> None:
    s = Schedule.of(_stencil().functions()[0]).skew("%j", {"%i": 1})
    markup = s._repr_html_()
    text = html.unescape(TAG.sub("", markup))
    assert s.statements[0].describe() in text
    assert str(s) in text
    assert s.tree_text() in text
    (png,) = _images(markup)
    assert png.startswith(b"\x89PNG")


def test_a_pass_result_shows_its_remarks_and_the_diff() -> None:
    module = _stencil()
    refused = transforms.tile(module, sizes=[4, 4])
    markup = refused._repr_html_()
    assert html.escape(refused.remarks[0].splitlines()[0]) in markup
    assert html.unescape(TAG.sub("", markup)).endswith("no change")
    skewed = transforms.skew(module, [1])
    text = html.unescape(TAG.sub("", skewed._repr_html_()))
    assert "--- input" in text and "+++ result" in text
    before = affine.print_module(module).splitlines()
    after = affine.print_module(skewed.module).splitlines()
    added = [line[1:] for line in text.splitlines() if line.startswith("+") and line[1:3] != "++"]
    assert added and all(line in after and line not in before for line in added)
