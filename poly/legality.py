"""The generic predicates of legality, decided from exact dependences.

A check returns a :class:`Verdict`: legal, or not with the reason (the dependence the
transformation would reverse, with a witness distance, or the shape it cannot handle).
Dependences are memory-based (:class:`poly.flow.FlowAnalysis`): every pair of instances
touching the same element, at least one writing. What the analysis could not decide, and
ops whose effects it cannot see, make a transformation illegal.

The predicates here look at a band ``L1..Ln`` (loops of one perfect nest) through the
distance vectors of the dependences between instances inside the band that agree on every
loop outside it, restricted to the band's IVs (:func:`band_distances`, :func:`violations`),
or at the order of instances below one loop (:func:`window_reversals`). Each
transformation's own check is next to its rewrite in :mod:`transforms` (``check_tiling``,
``check_permutation``, ``check_unroll_and_jam``, ``check_parallel``,
``check_distribution``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from affine.errors import PolyError
from affine.ir.core import Operation
from affine.ir.registry import PURE, lookup
from poly.deps import AnalysisWarning
from poly.flow import Edge, FlowAnalysis
from poly.model import NO_MEMORY_ACCESS
from poly.space import window_reversal_map

# Ops that may appear inside a transformed loop nest: pure ops, the affine structure, and
# memory ops the dependence model sees.
_STRUCTURE = ("affine.for", "affine.if", "affine.yield", "affine.parallel")
MODELLED_ACCESSES = (  # ops whose memory accesses the model describes element by element
    "affine.load",
    "affine.store",
    "affine.vector_load",
    "affine.vector_store",
    "memref.load",
    "memref.store",
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
    for edge in analysis.memory:
        try:
            distances = band_distances(edge, band)
        except _Unknown:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        if distances is None:
            continue
        if reorder is not None:
            distances = distances.apply(reorder)
        hit = distances.intersect(bad.align_params(distances.get_space()))
        if not hit.is_empty():
            point = hit.sample_point()
            witness = [
                point.get_coordinate_val(isl.dim_type.set, k).to_python()
                for k in range(hit.dim(isl.dim_type.set))
            ]
            return Verdict(False, f"it would reverse the {describe(edge, witness)}", edge)
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
    loop: Operation, span: int, action: str, analysis: FlowAnalysis | None = None
) -> Verdict:
    """Illegal when a dependence between two instances less than ``span`` apart on
    ``loop``'s IV has its target earlier than its source in the order of their schedules
    *below* ``loop`` (position in the body, then the inner loops' IVs): running such
    instances in that order (``action``, e.g. jamming) would reverse it."""
    analysis = analysis_for(loop, analysis)
    iv = loop.regions[0].blocks[0].arguments[0]
    for edge in analysis.memory:
        if not any(ref.op is loop for ref in edge.common):
            continue
        if edge.relation is None:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        source, target = edge.source.statement, edge.target.statement
        vectors = source.schedule_vector(), target.schedule_vector()
        width = max(len(v) for v in vectors)
        name = source.scope.iv_name(iv)
        position = vectors[0].index(name)
        times = edge.relation.apply_domain(
            source.schedule_map(width, edge.relation.get_tuple_name(isl.dim_type.in_))
        ).apply_range(target.schedule_map(width, edge.relation.get_tuple_name(isl.dim_type.out)))
        bad = window_reversal_map(width, position, span)
        hit = times.intersect(bad.align_params(times.get_space()))
        if not hit.is_empty():
            to_source = source.schedule_map(width, edge.relation.get_tuple_name(isl.dim_type.in_))
            to_target = target.schedule_map(width, edge.relation.get_tuple_name(isl.dim_type.out))
            pairs = edge.relation.intersect(
                hit.apply_domain(to_source.reverse()).apply_range(to_target.reverse())
            )
            witness = _distance_witness(pairs, len(edge.common))
            return Verdict(False, f"{action} would reverse the {describe(edge, witness)}", edge)
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
