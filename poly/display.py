"""Rich display in Jupyter of what the polyhedral layer computes: HTML tables and pictures.

Invariant: every text an object holds reaches the HTML escaped (``html.escape``), inside
plain tables with inline styles: no stylesheet, no script, nothing fetched. Pictures are
embedded PNG (``data:`` URIs) drawn by :mod:`poly.viz`. The objects' ``_repr_html_``
methods import this module on first display (it loads matplotlib).

Shown: the dependences of a :class:`~poly.flow.FlowAnalysis` (a table of edges with the
accesses' source positions, the loops' verdicts, the dependence graph's picture), the
checks of a :class:`~poly.deps.DependenceAnalysis`, legality verdicts, and a
:class:`~poly.schedule.Schedule` (its statements, map and tree, and its picture when a
statement has 1 to 3 loops).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from poly import viz
from poly.schedule_program import source_text, where

if TYPE_CHECKING:
    from poly.deps import Dependence, DependenceAnalysis
    from poly.flow import Edge, FlowAnalysis
    from poly.legality import Verdict
    from poly.model import Access
    from poly.schedule import Schedule
    from poly.schedule_check import ScheduleVerdict

CELL = "padding: 2px 8px; text-align: left; vertical-align: top; border-bottom: 1px solid #ddd"
CODE = "font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px"
STATUS_COLORS = {"legal": "#1e7d32", "illegal": "#c62828", "unknown": "#b26a00"}


def escape(text: object) -> str:
    return html.escape(str(text))


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], caption: str = "") -> str:
    """An HTML table, every cell escaped."""
    head = "".join(f'<th style="{CELL}">{escape(h)}</th>' for h in headers)
    body = "".join(
        "<tr>" + "".join(f'<td style="{CELL}">{escape(c)}</td>' for c in row) + "</tr>"
        for row in rows
    )
    title = f"<caption style='text-align: left'><b>{escape(caption)}</b></caption>"
    return (
        f'<table style="border-collapse: collapse; {CODE}">'
        f"{title if caption else ''}<tr>{head}</tr>{body}</table>"
    )


def code(text: str) -> str:
    """``text`` in a ``<pre>``, escaped."""
    return f'<pre style="{CODE}; background: #f8f8f8; padding: 6px">{escape(text)}</pre>'


def picture_html(picture: viz.Picture, alt: str) -> str:
    """The picture as an embedded PNG."""
    data = base64.b64encode(picture.png()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}" style="max-width: 100%">'


def status_html(status: str, reason: str = "") -> str:
    """``legal`` / ``illegal`` / ``unknown`` in its colour, then the reason."""
    color = STATUS_COLORS.get(status, "#333333")
    badge = f'<b style="color: {color}">{escape(status)}</b>'
    return f'<div style="{CODE}">{badge}{": " + escape(reason) if reason else ""}</div>'


def access_text(access: Access) -> str:
    """``affine.load %A[%i - 1, %j + 1] at stencil.mlir:6:12``."""
    return f"{source_text(access.op)} at {where(access.op)}"


def verdict_html(verdict: Verdict) -> str:
    """A transformation's verdict (:class:`poly.legality.Verdict`)."""
    return status_html("legal" if verdict.legal else "illegal", verdict.reason)


def schedule_verdict_html(verdict: ScheduleVerdict) -> str:
    """A schedule's verdict; for a violation a table of the dependence, its accesses with
    their source positions, the witness pair and its distance in the new loops."""
    text = status_html(verdict.status, verdict.reason)
    found = verdict.violation
    if found is not None:
        d = found.dependence
        rows = [
            ("dependence", f"{d.kind} from {d.source.name} to {d.target.name}"),
            ("source", f"{source_text(d.source_op)} at {where(d.source_op)}"),
            ("target", f"{source_text(d.target_op)} at {where(d.target_op)}"),
            ("witness", f"{d.source.instance(found.source)} and {d.target.instance(found.target)}"),
            ("problem", found.problem),
        ]
        if found.loops:
            distance = ", ".join(map(str, found.distance))
            rows.append(("distance", f"({distance}) on {', '.join(found.loops)}"))
        text += table(["", "violated"], rows)
    if verdict.notes:
        text += table(["note"], [(n,) for n in verdict.notes])
    return text


def _loop_name(ref: object) -> str:
    op = getattr(ref, "op", None)
    if op is None or not op.regions:
        return str(ref)
    iv = op.regions[0].blocks[0].arguments[getattr(ref, "index", 0)]
    return f"{iv.name or op.name} at {where(op)}"


def _edge_row(edge: Edge) -> tuple[str, ...]:
    distance = "unknown" if edge.unknown else edge.direction()
    bounds = "" if edge.unknown else "".join(str(b) for b in edge.bounds())
    carried = ", ".join(_loop_name(c) for c in edge.carried_by) or "loop-independent"
    return (
        edge.kind,
        access_text(edge.source),
        access_text(edge.target),
        f"{distance} {bounds}".strip(),
        carried,
        "yes" if edge.exact else "no",
    )


def edges_html(edges: Sequence[Edge], caption: str) -> str:
    headers = ["kind", "source", "target", "distance", "carried by", "exact"]
    return table(headers, [_edge_row(e) for e in edges], caption)


def flow_html(flow: FlowAnalysis) -> str:
    """The memory-based dependences, the loops' verdicts and the dependence graph."""
    parts = [edges_html(flow.memory, f"{len(flow.memory)} memory-based dependences")]
    loops = [
        (
            _loop_name(info.loop),
            "parallel" if info.parallel else "sequential",
            len(info.carried),
            "yes" if info.reduction_only else "no",
        )
        for info in flow.loops()
    ]
    parts.append(table(["loop", "verdict", "carries", "reductions only"], loops, "loops"))
    if flow.memory and len(flow.model.statements) <= 24:
        parts.append(picture_html(viz.plot_graph(flow), "the dependence graph"))
    return "".join(parts)


def dependence_html(dependence: Dependence) -> str:
    """One answer of :class:`~poly.deps.DependenceAnalysis`."""
    return checks_html([dependence], "dependence")


def checks_html(checks: Sequence[Dependence], caption: str) -> str:
    """Answers as ``-test-memref-dependence-check`` gives them, with source positions."""
    rows = [
        (
            access_text(d.source),
            access_text(d.target),
            d.depth,
            d.remark_value(),
            d.reason,
        )
        for d in checks
    ]
    return table(["source", "target", "depth", "dependence", "why unknown"], rows, caption)


def analysis_html(analysis: DependenceAnalysis) -> str:
    """The checks that found a dependence (or could not decide)."""
    found = [d for d in analysis.all_checks() if d.exists]
    return checks_html(found, f"{len(found)} dependences (pairs of accesses, depth)")


def schedule_html(schedule: Schedule, max_points: int = 100) -> str:
    """The statements, the 2d+1 map, the tree, and a picture of the first statement with 1
    to 3 loops in this order (parameters fixed small: :func:`poly.viz.small_params`)."""
    statements = table(["statement"], [(s.describe(),) for s in schedule.statements], "statements")
    parts = [statements, "<b>map</b>", code(str(schedule)), "<b>tree</b>"]
    parts.append(code(schedule.tree_text()))
    drawable = [s for s in schedule.statements if 1 <= s.depth <= 3]
    if drawable:
        try:
            params = viz.small_params(drawable[0].domain, max_points)
            picture = viz.plot_schedule(schedule, params, statement=drawable[0].name)
        except ValueError as e:  # too many points at every small parameter value
            parts.append(f"<i>no picture: {escape(e)}</i>")
        else:
            parts.append(picture_html(picture, f"{drawable[0].name} in this schedule's order"))
    return "".join(parts)
