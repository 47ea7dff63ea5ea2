"""The dependence graph: a networkx ``MultiDiGraph`` of accesses, statements or loop nests.

Nodes are identified by strings: ``A<k>`` (the k-th access of the model), ``S<n>``
(statements) or ``N<m>`` (top-level loop nests and straight-line ops of a scope, in
textual order). Every dependence is one edge with attributes ``kind`` (RAW/WAR/WAW/RAR),
``memref`` (its SSA name as written), ``depth`` (MLIR's: the outermost carrying loop, or
common loops + 1), ``distance`` (one ``[lb, ub]`` per common loop), ``distance_set`` (the
exact set in ISL text when those bounds do not describe it, else None), ``direction``,
``carried_by`` (loops as ``%i at FILE:LINE:COL``),
``loop_independent``, ``value_based``, ``exact`` and ``relation`` (ISL text). Exported as
DOT (:func:`to_dot`) and JSON (:func:`to_json`, networkx's node-link format).
"""

from __future__ import annotations

import json
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


def dependence_graph(
    analysis: FlowAnalysis, level: str = "access", value_based: bool = False
) -> nx.MultiDiGraph:
    """The dependences of ``analysis`` (memory-based unless ``value_based``) between nodes
    of ``level``: ``access``, ``statement`` or ``nest``."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    model = analysis.model
    graph = nx.MultiDiGraph(level=level, value_based=value_based)
    nests: dict[int, str] = {}

    def node(access: Access) -> str:
        if level == "access":
            return f"A{model.accesses.index(access)}"
        if level == "statement":
            return access.statement.name
        nest = _nest_of(access.statement)
        if id(nest) not in nests:
            nests[id(nest)] = f"N{len(nests)}"
            graph.add_node(nests[id(nest)], op=nest.name, location=_loc(nest), label=_label(nest))
        return nests[id(nest)]

    for access in model.accesses:
        name = node(access)
        if level == "access":
            graph.add_node(
                name,
                op=access.op.name,
                kind=access.kind,
                memref=access.memref_label,
                isl_tuple=access.memref_name,
                number=access.number,
                statement=access.statement.name,
                location=_loc(access.op),
                relation=str(access.relation),
                exact=access.exact,
                label=f"{access.op.name} {access.kind} {access.memref_label}",
            )
        elif level == "statement" and name not in graph:
            s = access.statement
            graph.add_node(
                name,
                op=s.op.name,
                location=_loc(s.op),
                domain=str(s.domain),
                label=s.op.name,
            )
    for edge in analysis.value if value_based else analysis.memory:
        graph.add_edge(node(edge.source), node(edge.target), **edge_attributes(edge))
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


def report(analysis: FlowAnalysis, level: str = "access") -> dict[str, Any]:
    """Everything about a module's dependences, JSON-serialisable: the accesses, memory-
    and value-based dependence graphs, and the verdict on every loop."""
    return {
        "memory_based": to_json(dependence_graph(analysis, level)),
        "value_based": to_json(dependence_graph(analysis, level, value_based=True)),
        "loops": [loop_summary(info) for info in analysis.loops()],
    }


def report_json(analysis: FlowAnalysis, level: str = "access") -> str:
    return json.dumps(report(analysis, level), indent=2) + "\n"


_PLURALS = {"access": "accesses", "statement": "statements", "nest": "nests"}


def report_text(analysis: FlowAnalysis, level: str = "access") -> str:
    """The report for reading in a terminal: the nodes of ``level`` (accesses, statements or
    loop nests), the memory-based then the value-based dependences between them, each with
    its own distances (and the exact set where per-loop bounds do not describe it), and the
    verdict on every loop; everything named as the source names it."""
    memory = dependence_graph(analysis, level)
    lines = [f"{_PLURALS[level]}:"]
    for name, data in memory.nodes(data=True):
        lines.append(f"  {name}: {data['label']} at {data['location']}")
    for title, graph in (
        ("memory-based", memory),
        ("value-based", dependence_graph(analysis, level, value_based=True)),
    ):
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
