"""The dependence graph: a networkx ``MultiDiGraph`` of accesses, statements or loop nests.

Nodes are identified by strings: ``A<k>`` (the k-th access of the model), ``S<n>``
(statements) or ``N<m>`` (top-level loop nests and straight-line ops of a scope, in
textual order). Every dependence is one edge with attributes ``kind`` (RAW/WAR/WAW/RAR),
``depth`` (MLIR's: the outermost carrying loop, or common loops + 1), ``distance`` (one
``[lb, ub]`` per common loop), ``direction``, ``carried_by`` (loop locations),
``loop_independent``, ``value_based``, ``exact`` and ``relation`` (ISL text). Exported as
DOT (:func:`to_dot`) and JSON (:func:`to_json`, networkx's node-link format).
"""

from __future__ import annotations

import json
from typing import Any

import networkx as nx

from affine.ir.core import Operation
from poly.flow import Edge, FlowAnalysis, LoopInfo
from poly.model import Access, Statement

LEVELS = ("access", "statement", "nest")


def _loc(op: Operation) -> str:
    return str(op.loc) if op.loc is not None else ""


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
            graph.add_node(nests[id(nest)], op=nest.name, location=_loc(nest))
        return nests[id(nest)]

    for access in model.accesses:
        name = node(access)
        if level == "access":
            graph.add_node(
                name,
                op=access.op.name,
                kind=access.kind,
                memref=access.memref_name,
                number=access.number,
                statement=access.statement.name,
                location=_loc(access.op),
                relation=str(access.relation),
                exact=access.exact,
            )
        elif level == "statement" and name not in graph:
            s = access.statement
            graph.add_node(name, op=s.op.name, location=_loc(s.op), domain=str(s.domain))
    for edge in analysis.value if value_based else analysis.memory:
        graph.add_edge(node(edge.source), node(edge.target), **edge_attributes(edge))
    return graph


def edge_attributes(edge: Edge) -> dict[str, Any]:
    return {
        "kind": edge.kind,
        "source_access": edge.source.number,
        "target_access": edge.target.number,
        "depth": edge.depth,
        "distance": "".join(str(b) for b in edge.bounds()),
        "direction": edge.direction(),
        "carried_by": [_loc(c.op) for c in edge.carried_by],
        "loop_independent": edge.loop_independent,
        "value_based": edge.value_based,
        "exact": edge.exact,
        "relation": str(edge.relation) if edge.relation is not None else None,
    }


def loop_summary(info: LoopInfo) -> dict[str, Any]:
    return {
        "loop": info.loop.op.name,
        "iv": info.loop.index,
        "location": _loc(info.loop.op),
        "parallel": info.parallel,
        "reduction_only": info.reduction_only,
        "iter_args_reductions": info.iter_args_reductions,
        "carried": [f"{e.kind} {e.source.number}->{e.target.number}" for e in info.carried],
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
        label = f"{name}: {data.get('op', '')}"
        if data.get("memref"):
            label += f" {data['kind']} {data['memref']}"
        if data.get("location"):
            label += f"\n{data['location']}"
        lines.append(f"  {quote(name)} [label={quote(label)}];")
    style = {"RAW": "solid", "WAR": "dashed", "WAW": "bold", "RAR": "dotted"}
    for source, target, data in graph.edges(data=True):
        label = f"{data['kind']} d{data['depth']} {data['distance']}".strip()
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
