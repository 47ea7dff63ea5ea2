"""The dependence graph: a networkx ``MultiDiGraph`` of accesses, statements or loop nests.

Nodes are identified by strings: ``A<k>`` (the k-th access of the model), ``S<n>``
(statements) or ``N<m>`` (top-level loop nests and straight-line ops of a scope, in
textual order). Every dependence is one edge with attributes ``kind`` (RAW/WAR/WAW/RAR),
``memref`` (its SSA name as written), ``depth`` (MLIR's: the outermost carrying loop, or
common loops + 1), ``distance`` (one ``[lb, ub]`` per common loop), ``distance_set`` (the
exact set in ISL text when those bounds do not describe it, else None), ``direction``,
``carried_by`` (loops as ``%i at FILE:LINE:COL``),
``loop_independent``, ``value_based``, ``exact`` and ``relation`` (ISL text). Exported as
DOT (:func:`to_dot`), networkx's node-link form (:func:`to_json`) and the report
(:func:`report_chunks`: one JSON document of the nodes, the value- or memory-based edges and
the loop verdicts, written a line at a time).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import networkx as nx

from affine.ir.core import Operation
from affine.ir.labels import induction_var, value_label
from poly.flow import Edge, FlowAnalysis, LoopInfo
from poly.model import Access, Statement

LEVELS = ("access", "statement", "nest")


def _loc(op: Operation) -> str:
    return str(op.loc) if op.loc is not None else ""


def _label(op: Operation) -> str:
    """A nest as the source shows it: its outermost loop's IV, or the op."""
    if op.name in ("affine.for", "affine.parallel"):
        return f"{op.name} {value_label(induction_var(op))}"
    return op.name


def _nest_of(statement: Statement) -> Operation:
    """The outermost op of the statement's scope that contains it (its loop nest)."""
    op = statement.op
    while op.parent_op is not None and op.parent is not None:
        if op.parent.parent is statement.scope.region:
            return op
        op = op.parent_op
    return op


class _Nodes:
    """The node of ``level`` each access belongs to (an access by its index in the model,
    found in constant time; nests numbered in the order they are first asked for) and the
    node's attributes."""

    def __init__(self, analysis: FlowAnalysis, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.level = level
        self.index = {id(a): k for k, a in enumerate(analysis.model.accesses)}
        self.nests: dict[int, str] = {}

    def name(self, access: Access) -> str:
        if self.level == "access":
            return f"A{self.index[id(access)]}"
        if self.level == "statement":
            return access.statement.name
        nest = _nest_of(access.statement)
        return self.nests.setdefault(id(nest), f"N{len(self.nests)}")

    def attributes(self, access: Access) -> dict[str, Any]:
        if self.level == "access":
            return {
                "op": access.op.name,
                "kind": access.kind,
                "memref": access.memref_label,
                "isl_tuple": access.memref_name,
                "number": access.number,
                "statement": access.statement.name,
                "location": _loc(access.op),
                "relation": str(access.relation),
                "exact": access.exact,
                "label": f"{access.op.name} {access.kind} {access.memref_label}",
            }
        if self.level == "statement":
            s = access.statement
            return {
                "op": s.op.name,
                "location": _loc(s.op),
                "domain": str(s.domain),
                "label": s.op.name,
            }
        nest = _nest_of(access.statement)
        return {"op": nest.name, "location": _loc(nest), "label": _label(nest)}


def dependence_nodes(analysis: FlowAnalysis, level: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The nodes of ``level`` (accesses, statements or nests) with their attributes, in the
    model's order, each once."""
    nodes = _Nodes(analysis, level)
    seen: set[str] = set()
    for access in analysis.model.accesses:
        name = nodes.name(access)
        if name not in seen:
            seen.add(name)
            yield name, nodes.attributes(access)


def dependence_edges(
    analysis: FlowAnalysis, level: str, value_based: bool
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The dependences (value- or memory-based) as ``(source node, target node, attributes)``
    between nodes of ``level``, one edge each."""
    nodes = _Nodes(analysis, level)
    for access in analysis.model.accesses:
        nodes.name(access)  # nests numbered in the model's order, as the nodes are
    for edge in analysis.value if value_based else analysis.memory:
        yield nodes.name(edge.source), nodes.name(edge.target), edge_attributes(edge)


def dependence_graph(
    analysis: FlowAnalysis, level: str = "access", value_based: bool = False
) -> nx.MultiDiGraph:
    """The dependences of ``analysis`` (memory-based unless ``value_based``) between nodes
    of ``level``: ``access``, ``statement`` or ``nest``."""
    graph = nx.MultiDiGraph(level=level, value_based=value_based)
    graph.add_nodes_from(dependence_nodes(analysis, level))
    for source, target, attributes in dependence_edges(analysis, level, value_based):
        graph.add_edge(source, target, **attributes)
    return graph


def edge_attributes(edge: Edge) -> dict[str, Any]:
    return {
        "kind": edge.kind,
        "source_access": edge.source.number,
        "target_access": edge.target.number,
        "depth": edge.depth,
        "memref": edge.source.memref_label,
        "distance": "".join(str(b) for b in edge.bounds()),
        "distance_set": edge.exact_distances(),
        "direction": edge.direction(),
        "carried_by": [c.label for c in edge.carried_by],
        "loop_independent": edge.loop_independent,
        "value_based": edge.value_based,
        "exact": edge.exact,
        "relation": str(edge.relation) if edge.relation is not None else None,
    }


def loop_summary(info: LoopInfo) -> dict[str, Any]:
    return {
        "loop": info.loop.op.name,
        "iv": value_label(induction_var(info.loop.op, info.loop.index)),
        "iv_index": info.loop.index,
        "location": _loc(info.loop.op),
        "parallel": info.parallel,
        "reduction_only": info.reduction_only,
        "iter_args_reductions": info.iter_args_reductions,
        "carried": [
            f"{e.kind} {e.source.number}->{e.target.number} on {e.source.memref_label}"
            for e in info.carried
        ],
    }


def to_json(graph: nx.MultiDiGraph) -> dict[str, Any]:
    """networkx's node-link form of the graph (JSON-serialisable)."""
    return nx.node_link_data(graph, edges="edges")


def to_dot(graph: nx.MultiDiGraph) -> str:
    """Graphviz DOT text: one node per access/statement/nest, edges labelled with the kind,
    the depth and the distance."""

    def quote(text: object) -> str:
        escaped = str(text).replace("\\", "\\\\").replace('"', '\\"')
        return '"' + escaped.replace("\n", "\\n") + '"'

    lines = ["digraph dependences {", "  node [shape=box, fontname=monospace];"]
    for name, data in graph.nodes(data=True):
        label = f"{name}: {data.get('label', data.get('op', ''))}"
        if data.get("location"):
            label += f"\n{data['location']}"
        lines.append(f"  {quote(name)} [label={quote(label)}];")
    style = {"RAW": "solid", "WAR": "dashed", "WAW": "bold", "RAR": "dotted"}
    for source, target, data in graph.edges(data=True):
        label = f"{data['kind']} {data['memref']} d{data['depth']} {data['distance']}".strip()
        lines.append(
            f"  {quote(source)} -> {quote(target)} [label={quote(label)}, "
            f"style={style.get(data['kind'], 'solid')}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def report(
    analysis: FlowAnalysis, level: str = "access", value_based: bool = True
) -> dict[str, Any]:
    """The dependence report as a JSON-serialisable dict (what :func:`report_json` writes):
    ``level``, ``value_based``, the ``nodes`` of ``level`` (each with its ``id``), the value-
    or memory-based dependence ``edges`` between them (each with its ``source`` and ``target``
    node and :func:`edge_attributes` but ``value_based``) and the verdict on every loop."""
    return {
        key: value if isinstance(value, (str, bool)) else list(value)
        for key, value in _report_parts(analysis, level, value_based)
    }


def report_json(analysis: FlowAnalysis, level: str = "access", value_based: bool = True) -> str:
    """:func:`report` as JSON text (see :func:`report_chunks`)."""
    return "".join(report_chunks(analysis, level, value_based))


def report_chunks(
    analysis: FlowAnalysis, level: str = "access", value_based: bool = True
) -> Iterator[str]:
    """:func:`report` as one JSON document written a piece at a time, one line per node,
    edge and loop: its size and the memory it takes grow with what it reports."""
    separator = "{"
    for key, value in _report_parts(analysis, level, value_based):
        if isinstance(value, (str, bool)):
            yield f"{separator}{json.dumps(key)}: {json.dumps(value)}"
        else:
            yield f"{separator.rstrip()}\n{json.dumps(key)}: ["
            item_separator = "\n  "
            for item in value:
                yield item_separator + json.dumps(item)
                item_separator = ",\n  "
            yield "]" if item_separator == "\n  " else "\n]"
        separator = ", "
    yield "}\n"


def _report_parts(
    analysis: FlowAnalysis, level: str, value_based: bool
) -> Iterator[tuple[str, str | bool | Iterator[dict[str, Any]]]]:
    yield "level", level
    yield "value_based", value_based
    yield "nodes", ({"id": name, **data} for name, data in dependence_nodes(analysis, level))
    yield (
        "edges",
        (
            {"source": source, "target": target, **_without(data, "value_based")}
            for source, target, data in dependence_edges(analysis, level, value_based)
        ),
    )
    yield "loops", (loop_summary(info) for info in analysis.loops())


def _without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


_PLURALS = {"access": "accesses", "statement": "statements", "nest": "nests"}


def report_text(
    analysis: FlowAnalysis, level: str = "access", value_based: bool | None = None
) -> str:
    """The report for reading in a terminal: the nodes of ``level`` (accesses, statements or
    loop nests), the memory-based then the value-based dependences between them (only those
    of ``value_based`` when it is given), each with its own distances (and the exact set
    where per-loop bounds do not describe it), and the verdict on every loop; everything
    named as the source names it."""
    lines = [f"{_PLURALS[level]}:"]
    for name, data in dependence_nodes(analysis, level):
        lines.append(f"  {name}: {data['label']} at {data['location']}")
    for title, value in (("memory-based", False), ("value-based", True)):
        if value_based is not None and value_based != value:
            continue
        graph = dependence_graph(analysis, level, value_based=value)
        lines.append(f"dependences ({title}):")
        for source, target, data in graph.edges(data=True):
            carried = ", ".join(data["carried_by"]) or "no loop"
            lines.append(
                f"  {data['kind']} {source} -> {target} on {data['memref']}: distance "
                f"{data['distance'] or '()'} direction {data['direction']} carried by {carried}"
                + ("" if data["exact"] else " (over-approximated)")
            )
            if data["distance_set"] is not None:
                lines.append(f"    exact distances: {data['distance_set']}")
        if not graph.number_of_edges():
            lines.append("  none")
    lines.append("loops:")
    for info in analysis.loops():
        verdict = (
            "parallel"
            if info.parallel
            else "reduction only"
            if info.reduction_only
            else f"sequential ({len(info.carried)} dependences carried)"
        )
        lines.append(f"  {info.loop.op.name} {info.loop.label}: {verdict}")
    return "\n".join(lines) + "\n"
