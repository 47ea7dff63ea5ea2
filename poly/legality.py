"""The generic predicates of legality, decided from exact dependences.

A check returns a :class:`Verdict`: legal, or not with the reason (the dependence the
transformation would reverse, with a witness distance, or the shape it cannot handle).
Dependences are memory-based (:class:`poly.flow.FlowAnalysis`): every pair of instances
touching the same element, at least one writing. What the analysis could not decide, and
ops whose effects it cannot see, make a transformation illegal.

The predicates here look at a band ``L1..Ln`` (loops of one perfect nest) through the
distance vectors of the dependences between instances inside the band that agree on every
loop outside it, restricted to the band's IVs (:func:`band_distances`, :func:`violations`),
at the order of instances below one loop (:func:`window_reversals`), or at a register
tile's order and the values it holds in registers (:func:`register_order_reversals`,
:func:`register_conflicts`). Each
transformation's own check is next to its rewrite in :mod:`transforms` (``check_tiling``,
``check_permutation``, ``check_unroll_and_jam``, ``check_parallel``,
``check_distribution``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from affine.dialects.common import ELEMENT_ACCESSES
from affine.errors import PolyError
from affine.ir.core import Operation
from affine.ir.registry import PURE, lookup
from poly.deps import AnalysisWarning
from poly.flow import RAW, Edge, FlowAnalysis
from poly.model import NO_MEMORY_ACCESS, Statement
from poly.space import (
    register_reversal_set,
    register_window_set,
    same_iteration_distances,
    window_reversal_map,
)

TRANSFERS = ("vector.transfer_read", "vector.transfer_write")

# Ops that may appear inside a transformed loop nest: pure ops, the affine structure, and
# memory ops the dependence model sees.
_STRUCTURE = ("affine.for", "affine.if", "affine.yield", "affine.parallel")
MODELLED_ACCESSES = (  # ops whose memory accesses the model describes element by element
    *ELEMENT_ACCESSES,
    *TRANSFERS,
    "affine.dma_start",
    "affine.dma_wait",
    "memref.dma_start",
    "memref.dma_wait",
)


@dataclass(frozen=True)
class Verdict:
    """Whether a transformation is legal; when not, why."""

    legal: bool
    reason: str = ""
    dependence: Edge | None = None

    def __bool__(self) -> bool:
        return self.legal

    def _repr_html_(self) -> str:
        """Legal or illegal in colour, and why (Jupyter's rich display)."""
        from poly import display  # lazy: start-up cost (matplotlib, for pictures)

        return display.verdict_html(self)


LEGAL = Verdict(True)


def analysis_for(op: Operation, analysis: FlowAnalysis | None) -> FlowAnalysis:
    """``analysis``, or the memory-based dependences of the function around ``op``."""
    if analysis is not None:
        return analysis
    function = op
    while function.parent_op is not None and function.name != "func.func":
        function = function.parent_op
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return FlowAnalysis(function, value_based=False)


def where(op: Operation) -> str:
    """``affine.for at f.mlir:3:5`` (the op's name alone where it has no location)."""
    return f"{op.name} at {op.loc}" if op.loc is not None else op.name


def describe(edge: Edge, witness: Sequence[int] | None = None) -> str:
    """``RAW dependence from affine.store at f.mlir:5:7 to affine.load at f.mlir:4:12 on
    %A``."""
    text = (
        f"{edge.kind} dependence from {where(edge.source.op)} to {where(edge.target.op)} "
        f"on {edge.source.memref_label}"
    )
    if witness is not None:
        text += f" with distance ({', '.join(str(v) for v in witness)})"
    return text


def has_unseen_effects(op: Operation) -> bool:
    """Whether ``op`` itself (not the ops nested in it) may have effects the dependence
    model does not see: a call, an op of an unknown dialect, a region op other than the
    affine ones."""
    if op.name in _STRUCTURE or op.name in NO_MEMORY_ACCESS or op.name in MODELLED_ACCESSES:
        return False
    d = lookup(op.name)
    return not (d is not None and d.has(PURE) and not op.regions)


def unsupported_ops(loops: Sequence[Operation]) -> Verdict:
    """Illegal when the nest holds an op whose effects the dependence model does not see
    (:func:`has_unseen_effects`)."""
    for op in loops[0].nested_ops():
        if has_unseen_effects(op):
            return Verdict(
                False, f"{where(op)} may have effects the dependence analysis cannot see"
            )
    return LEGAL


def _band_positions(edge: Edge, band: Sequence[Operation]) -> int | None:
    """Where the band's IVs start among the edge's common loops (None: not inside it)."""
    for k, ref in enumerate(edge.common):
        if ref.op is band[0]:
            if len(edge.common) < k + len(band):
                return None
            if all(edge.common[k + j].op is band[j] for j in range(len(band))):
                return k
            return None
    return None


def band_distances(edge: Edge, band: Sequence[Operation]) -> isl.Set | None:
    """The edge's distance vectors on the band's IVs, for instance pairs that agree on
    every loop outside the band; None when the edge does not lie inside the band."""
    start = _band_positions(edge, band)
    if start is None:
        return None
    if edge.distances is None:
        raise _Unknown(edge)
    distances = edge.distances
    n = len(edge.common)
    for k in range(start):
        distances = distances.fix_val(isl.dim_type.set, k, isl.Val.zero(distances.get_ctx()))
    distances = distances.project_out(isl.dim_type.set, start + len(band), n - start - len(band))
    return distances.project_out(isl.dim_type.set, 0, start)


class _Unknown(PolyError):
    def __init__(self, edge: Edge) -> None:
        self.edge = edge


def violations(
    analysis: FlowAnalysis,
    band: Sequence[Operation],
    bad: isl.Set,
    reorder: isl.Map | None = None,
) -> Verdict:
    """Illegal if some dependence inside the band has band distances in ``bad`` (after
    ``reorder`` maps the distance vectors to the new loop order)."""
    return _first_hit(analysis, band, lambda edge: bad, "it would reverse the", reorder)


def _first_hit(
    analysis: FlowAnalysis,
    band: Sequence[Operation],
    bad_of: Callable[[Edge], isl.Set | None],
    problem: str,
    reorder: isl.Map | None = None,
) -> Verdict:
    """Illegal (``problem`` and the edge with a witness) when the band distances of a
    dependence inside the band (mapped by ``reorder``) meet ``bad_of(edge)``; an edge whose
    ``bad_of`` is None is not looked at, one that cannot be analysed makes it illegal."""
    for edge in analysis.memory:
        bad = bad_of(edge)
        if bad is None:
            continue
        try:
            distances = band_distances(edge, band)
        except _Unknown:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        if distances is None:
            continue
        if reorder is not None:
            distances = distances.apply(reorder)
        witness = _hit(distances, bad)
        if witness is not None:
            return Verdict(False, f"{problem} {describe(edge, witness)}", edge)
    return LEGAL


def band_structure(band: Sequence[Operation]) -> Verdict:
    """Illegal unless the band is made of ``affine.for`` loops without iter_args around ops
    the dependence model sees."""
    for loop in band:
        if loop.name != "affine.for":
            return Verdict(False, f"{where(loop)} is not an affine.for")
        if len(loop.regions[0].blocks[0].arguments) > 1:
            return Verdict(False, f"{where(loop)} carries values through iter_args")
    return unsupported_ops(band)


def window_reversals(
    loop: Operation,
    span: int,
    action: str,
    analysis: FlowAnalysis | None = None,
    runs: Mapping[Operation, int] | None = None,
) -> Verdict:
    """Illegal when a dependence between two instances less than ``span`` apart on
    ``loop``'s IV has its target earlier than its source in the order of their schedules
    *below* ``loop`` (position in the body, then the inner loops' IVs): running such
    instances in that order (``action``, e.g. jamming) would reverse it.

    With ``runs`` (per op, how far in walk order it is from the first op of its run: the
    ops that jamming copies as one block), instances of one run in the same inner
    iterations run by ``loop``'s IV before their position: the run, then the IV, then the
    position."""
    analysis = analysis_for(loop, analysis)
    iv = loop.regions[0].blocks[0].arguments[0]

    def vector(statement: Statement) -> list[int | str]:
        v = statement.schedule_vector()
        if runs is None or statement.op not in runs:
            return v
        last = v[-1]
        assert isinstance(last, int)  # the op's position
        return [*v[:-1], last - runs[statement.op], statement.scope.iv_name(iv), last]

    for edge in analysis.memory:
        if not any(ref.op is loop for ref in edge.common):
            continue
        if edge.relation is None:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        source, target = edge.source.statement, edge.target.statement
        vectors = vector(source), vector(target)
        width = max(len(v) for v in vectors)
        position = vectors[0].index(source.scope.iv_name(iv))
        source_name = edge.relation.get_tuple_name(isl.dim_type.in_)
        target_name = edge.relation.get_tuple_name(isl.dim_type.out)
        to_source = source.schedule_map(width, source_name, vector=vectors[0])
        to_target = target.schedule_map(width, target_name, vector=vectors[1])
        times = edge.relation.apply_domain(to_source).apply_range(to_target)
        bad = window_reversal_map(width, position, span)
        hit = times.intersect(bad.align_params(times.get_space()))
        if not hit.is_empty():
            pairs = edge.relation.intersect(
                hit.apply_domain(to_source.reverse()).apply_range(to_target.reverse())
            )
            witness = _distance_witness(pairs, len(edge.common))
            return Verdict(False, f"{action} would reverse the {describe(edge, witness)}", edge)
    return LEGAL


def independent_copies(
    outer: Operation, inners: Sequence[Operation], span: int, analysis: FlowAnalysis
) -> Verdict:
    """Whether no iteration of a loop of ``inners`` (each directly inside ``outer``) reads
    what the same iteration wrote less than ``span`` iterations of ``outer`` before: jammed
    by ``span``, the copies of each inner loop then run as independent chains (seidel-2d
    skewed by ``i`` may be jammed, but each row would wait for the row above in every
    iteration; skewed by ``2i`` the rows run side by side). When not, the flow that links
    them."""
    same_iteration = same_iteration_distances(span)
    for edge in analysis.memory:
        if edge.kind != RAW:
            continue
        for inner in inners:
            if not (inner.is_ancestor_of(edge.source.op) and inner.is_ancestor_of(edge.target.op)):
                continue
            try:
                distances = band_distances(edge, [outer, inner])
            except _Unknown:
                return Verdict(False, f"{describe(edge)} could not be analysed", edge)
            if distances is None:
                continue
            if not distances.intersect(
                same_iteration.align_params(distances.get_space())
            ).is_empty():
                return Verdict(
                    False, f"the copies would wait for each other: {describe(edge)}", edge
                )
    return LEGAL


def _distance_witness(pairs: isl.Map, n: int) -> list[int] | None:
    """One distance vector (target minus source IVs, on the first ``n`` IVs) of ``pairs``."""
    if pairs.is_empty():
        return None
    common = pairs.project_out(isl.dim_type.in_, n, pairs.dim(isl.dim_type.in_) - n)
    common = common.project_out(isl.dim_type.out, n, common.dim(isl.dim_type.out) - n)
    common = common.reset_tuple_id(isl.dim_type.in_).reset_tuple_id(isl.dim_type.out)
    point = common.deltas().sample_point()
    return [point.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(n)]


@dataclass(frozen=True)
class RegisterOrder:
    """The order of a band's instances in a register tile: the loops ``rows`` and
    ``vector`` (positions in the band) run in groups of ``row_window`` and
    ``vector_window`` iterations, the groups of rows outside the groups of vectors, and the
    loop ``reduction`` runs inside a group; there, instances run by the reduction IV, the
    row, the op's position in the body and the vector IV. The band's other loops keep
    their order outside. A role that is None is absent (its window is 1)."""

    rows: int | None
    vector: int | None
    reduction: int | None
    row_window: int = 1
    vector_window: int = 1

    def fixed(self, count: int) -> list[int]:
        """The band positions without a role."""
        roles = {self.rows, self.vector, self.reduction}
        return [k for k in range(count) if k not in roles]

    def near(self) -> list[tuple[int, int]]:
        """``(position, window)`` of the grouped loops."""
        pairs = [(self.rows, self.row_window), (self.vector, self.vector_window)]
        return [(k, w) for k, w in pairs if k is not None]


def _hit(distances: isl.Set, bad: isl.Set) -> list[int] | None:
    """A distance vector in both sets (a witness), or None."""
    hit = distances.intersect(bad.align_params(distances.get_space()))
    if hit.is_empty():
        return None
    point = hit.sample_point()
    return [
        point.get_coordinate_val(isl.dim_type.set, k).to_python()
        for k in range(hit.dim(isl.dim_type.set))
    ]


def register_order_reversals(
    analysis: FlowAnalysis,
    band: Sequence[Operation],
    order: RegisterOrder,
    positions: dict[Operation, int],
) -> Verdict:
    """Illegal when running the band in the register ``order`` would reverse a dependence
    between two instances of its innermost body (``positions``: each op's position there)."""
    count = len(band)
    rows = (order.rows, order.row_window) if order.rows is not None else None
    vector = (order.vector, order.vector_window) if order.vector is not None else None

    def bad_of(edge: Edge) -> isl.Set | None:
        if edge.source.op not in positions or edge.target.op not in positions:
            return None  # not between two instances of the body
        step = positions[edge.target.op] - positions[edge.source.op]
        body_order = (step > 0) - (step < 0)
        return register_reversal_set(
            count, order.fixed(count), rows, vector, order.reduction, body_order
        )

    return _first_hit(analysis, band, bad_of, "it would reverse the")


def register_points_apart(
    analysis: FlowAnalysis, band: Sequence[Operation], order: RegisterOrder
) -> Verdict:
    """Illegal when a dependence joins two points (row, vector IV) that may fall in one
    group of rows: a tile whose vector loop's bounds move with the rows runs each row's
    ends apart from the group's common part, so only points that share no dependence may
    be regrouped (each point's own instances keep their order)."""
    count = len(band)
    assert order.rows is not None and order.vector is not None
    bad = register_window_set(
        count, order.fixed(count), [(order.rows, order.row_window)], [order.rows, order.vector]
    )
    return _first_hit(
        analysis, band, lambda edge: bad, "running a row's ends apart from its group reorders the"
    )


def register_conflicts(
    analysis: FlowAnalysis,
    band: Sequence[Operation],
    order: RegisterOrder,
    held: Sequence[tuple[Sequence[Operation], bool]],
) -> Verdict:
    """Illegal when values held in registers across the reduction loop would go stale:
    ``held`` lists groups of accesses of one address each (with whether that address is
    the same for every row of a tile). A dependence between a held access and any other
    access that may fall in the same tile, or between two held accesses of a group at
    different rows (unless the address is the same for every row) or different vector
    lanes, means the memory would be touched while the value lives in a register."""
    count = len(band)
    group_of = {op: k for k, (ops, _) in enumerate(held) for op in ops}
    window = register_window_set(count, order.fixed(count), order.near())

    def bad_of(edge: Edge) -> isl.Set | None:
        source, target = group_of.get(edge.source.op), group_of.get(edge.target.op)
        if source is None or source != target:
            return None if target is None and source is None else window
        apart = [order.vector] if order.vector is not None else []
        if order.rows is not None and not held[source][1]:
            apart.append(order.rows)
        if not apart:
            return None
        return register_window_set(count, order.fixed(count), order.near(), apart)

    return _first_hit(
        analysis,
        band,
        bad_of,
        "a value held in registers across the reduction loop would miss the",
    )
