"""Legality of loop transformations, decided from exact dependences.

Each check returns a :class:`Verdict`: legal, or not with the reason (the dependence the
transformation would reverse, with a witness distance, or the shape it cannot handle).
Dependences are memory-based (:class:`poly.flow.FlowAnalysis`): every pair of instances
touching the same element, at least one writing. What the analysis could not decide, and
ops whose effects it cannot see, make a transformation illegal.

The tests on a band ``L1..Ln`` (loops of one perfect nest) look at the distance vectors of
the dependences between instances inside the band that agree on every loop outside it,
restricted to the band's IVs (deeper loops keep their order):

* permutation: no permuted distance vector is lexicographically negative;
* tiling (rectangular or not): every component is non-negative (the band is fully
  permutable);
* unroll-and-jam of ``L`` by ``F``: no dependence whose source and target lie less than
  ``F`` iterations of ``L`` apart has a lexicographically negative distance on the loops
  inside ``L`` (they would run in the opposite order once jammed);
* parallelisation of ``L``: ``L`` carries no dependence, and its ``iter_args`` (if any)
  are reductions;
* skewing and unrolling keep the order of every pair of instances: always legal.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from affine.dialects.registry import PURE, lookup
from affine.ir import Operation
from poly.deps import AnalysisWarning
from poly.flow import Edge, FlowAnalysis, iter_args_reductions
from poly.model import NO_MEMORY_ACCESS

# Ops that may appear inside a transformed loop nest: pure ops, the affine structure, and
# memory ops the dependence model sees.
_STRUCTURE = ("affine.for", "affine.if", "affine.yield", "affine.parallel")
_MODELLED = (
    "affine.load",
    "affine.store",
    "affine.vector_load",
    "affine.vector_store",
    "memref.load",
    "memref.store",
    "affine.dma_start",
    "affine.dma_wait",
)


@dataclass(frozen=True)
class Verdict:
    """Whether a transformation is legal; when not, why."""

    legal: bool
    reason: str = ""
    dependence: Edge | None = None

    def __bool__(self) -> bool:
        return self.legal


LEGAL = Verdict(True)


def _analysis(op: Operation, analysis: FlowAnalysis | None) -> FlowAnalysis:
    if analysis is not None:
        return analysis
    function = op
    while function.parent_op is not None and function.name != "func.func":
        function = function.parent_op
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return FlowAnalysis(function, value_based=False)


def _where(op: Operation) -> str:
    return f"{op.name} at {op.loc}" if op.loc is not None else op.name


def describe(edge: Edge, witness: Sequence[int] | None = None) -> str:
    """``RAW dependence from affine.store at f.mlir:5:7 to affine.load at f.mlir:4:12``."""
    text = f"{edge.kind} dependence from {_where(edge.source.op)} to {_where(edge.target.op)}"
    if witness is not None:
        text += f" with distance ({', '.join(str(v) for v in witness)})"
    return text


def has_unseen_effects(op: Operation) -> bool:
    """Whether ``op`` itself (not the ops nested in it) may have effects the dependence
    model does not see: a call, an op of an unknown dialect, a region op other than the
    affine ones."""
    if op.name in _STRUCTURE or op.name in NO_MEMORY_ACCESS or op.name in _MODELLED:
        return False
    d = lookup(op.name)
    return not (d is not None and d.has(PURE) and not op.regions)


def unsupported_ops(loops: Sequence[Operation]) -> Verdict:
    """Illegal when the nest holds an op whose effects the dependence model does not see
    (:func:`has_unseen_effects`)."""
    for op in loops[0].nested_ops():
        if has_unseen_effects(op):
            return Verdict(
                False, f"{_where(op)} may have effects the dependence analysis cannot see"
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


class _Unknown(Exception):
    def __init__(self, edge: Edge) -> None:
        self.edge = edge


def _violations(
    analysis: FlowAnalysis, band: Sequence[Operation], bad: isl.Set, transform=None
) -> Verdict:
    """Illegal if some dependence inside the band has band distances in ``bad`` (after
    ``transform`` maps the distance set)."""
    for edge in analysis.memory:
        try:
            distances = band_distances(edge, band)
        except _Unknown:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        if distances is None:
            continue
        if transform is not None:
            distances = transform(distances)
        hit = distances.intersect(bad.align_params(distances.get_space()))
        if not hit.is_empty():
            point = hit.sample_point()
            witness = [
                point.get_coordinate_val(isl.dim_type.set, k).to_python()
                for k in range(hit.dim(isl.dim_type.set))
            ]
            return Verdict(False, f"it would reverse the {describe(edge, witness)}", edge)
    return LEGAL


def _lex_negative(ctx: isl.Context, n: int) -> isl.Set:
    names = [f"x{k}" for k in range(n)]
    pieces = []
    for k in range(n):
        zeros = [f"{names[j]} = 0" for j in range(k)]
        pieces.append("(" + " and ".join([*zeros, f"{names[k]} < 0"]) + ")")
    body = " or ".join(pieces) if pieces else "false"
    return isl.Set.read_from_str(ctx, f"{{ [{', '.join(names)}] : {body} }}")


def _any_negative(ctx: isl.Context, n: int) -> isl.Set:
    names = [f"x{k}" for k in range(n)]
    body = " or ".join(f"{x} < 0" for x in names) if names else "false"
    return isl.Set.read_from_str(ctx, f"{{ [{', '.join(names)}] : {body} }}")


def _structure(band: Sequence[Operation]) -> Verdict:
    for loop in band:
        if loop.name != "affine.for":
            return Verdict(False, f"{_where(loop)} is not an affine.for")
        if len(loop.regions[0].blocks[0].arguments) > 1:
            return Verdict(False, f"{_where(loop)} carries values through iter_args")
    return unsupported_ops(band)


def check_permutation(
    band: Sequence[Operation], permutation: Sequence[int], analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can the perfect band be permuted (``permutation[i]`` = new position of loop i, as in
    MLIR's ``permuteLoops``)?"""
    if sorted(permutation) != list(range(len(band))):
        return Verdict(False, f"{list(permutation)} is not a permutation of {len(band)} loops")
    verdict = _structure(band)
    if not verdict:
        return verdict
    analysis = _analysis(band[0], analysis)
    n = len(band)
    order = [0] * n
    for old, new in enumerate(permutation):
        order[new] = old

    def permute(distances: isl.Set) -> isl.Set:
        text = (
            f"{{ [{', '.join(f'x{k}' for k in range(n))}] -> "
            f"[{', '.join(f'x{order[k]}' for k in range(n))}] }}"
        )
        return distances.apply(isl.Map.read_from_str(distances.get_ctx(), text))

    return _violations(analysis, band, _lex_negative(analysis.model.ctx, n), permute)


def check_tiling(band: Sequence[Operation], analysis: FlowAnalysis | None = None) -> Verdict:
    """Can the band be tiled: is it fully permutable (every band distance non-negative)?"""
    verdict = _structure(band)
    if not verdict:
        return verdict
    analysis = _analysis(band[0], analysis)
    return _violations(analysis, band, _any_negative(analysis.model.ctx, len(band)))


def check_unroll_and_jam(
    loop: Operation, factor: int, analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can ``loop`` be unrolled by ``factor`` and its copies jammed into the loops inside?

    Jamming runs the copies for ``iv, iv + step, ..`` side by side in every innermost run of
    ops: two instances less than ``factor`` iterations of ``loop`` apart then run in the
    order of their schedules *below* ``loop`` (position in the body, then the inner loops'
    IVs), and only then of ``loop``'s IV. Illegal when a dependence between such instances
    has its target earlier below ``loop`` than its source.
    """
    if factor < 1:
        return Verdict(False, f"unroll-and-jam factor {factor} is not positive")
    verdict = unsupported_ops([loop])
    if not verdict:
        return verdict
    analysis = _analysis(loop, analysis)
    step = loop.properties["step"].value  # type: ignore[attr-defined]
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
        bad = isl.Map.read_from_str(times.get_ctx(), _jam_reversal(width, position, factor * step))
        hit = times.intersect(bad.align_params(times.get_space()))
        if not hit.is_empty():
            to_source = source.schedule_map(width, edge.relation.get_tuple_name(isl.dim_type.in_))
            to_target = target.schedule_map(width, edge.relation.get_tuple_name(isl.dim_type.out))
            pairs = edge.relation.intersect(
                hit.apply_domain(to_source.reverse()).apply_range(to_target.reverse())
            )
            witness = _distance_witness(pairs, len(edge.common))
            return Verdict(False, f"jamming would reverse the {describe(edge, witness)}", edge)
    return LEGAL


def _jam_reversal(width: int, position: int, span: int) -> str:
    """Time pairs ``s -> t`` equal before ``position``, ``0 < t - s < span`` there, and
    ``t`` lexicographically before ``s`` after it."""
    s = [f"s{k}" for k in range(width)]
    t = [f"t{k}" for k in range(width)]
    equal = [f"{s[k]} = {t[k]}" for k in range(position)]
    apart = [f"0 < {t[position]} - {s[position]} < {span}"]
    earlier = []
    for k in range(position + 1, width):
        prefix = [f"{s[j]} = {t[j]}" for j in range(position + 1, k)]
        earlier.append("(" + " and ".join([*prefix, f"{t[k]} < {s[k]}"]) + ")")
    body = " and ".join(equal + apart + ["(" + (" or ".join(earlier) or "false") + ")"])
    return f"{{ [{', '.join(s)}] -> [{', '.join(t)}] : {body} }}"


def _distance_witness(pairs: isl.Map, n: int) -> list[int] | None:
    """One distance vector (target minus source IVs, on the first ``n`` IVs) of ``pairs``."""
    if pairs.is_empty():
        return None
    common = pairs.project_out(isl.dim_type.in_, n, pairs.dim(isl.dim_type.in_) - n)
    common = common.project_out(isl.dim_type.out, n, common.dim(isl.dim_type.out) - n)
    common = common.reset_tuple_id(isl.dim_type.in_).reset_tuple_id(isl.dim_type.out)
    point = common.deltas().sample_point()
    return [point.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(n)]


def check_parallel(
    loop: Operation, reductions: bool = False, analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can ``loop`` run its iterations in parallel (as ``affine.parallel``)? With
    ``reductions``, ``iter_args`` reductions are allowed (they become ``reduce`` kinds)."""
    if loop.name != "affine.for":
        return Verdict(False, f"{_where(loop)} is not an affine.for")
    combiners, sequential = iter_args_reductions(loop)
    if sequential:
        return Verdict(
            False, f"{_where(loop)} carries a value through iter_args that is not a reduction"
        )
    if combiners and not reductions:
        return Verdict(
            False,
            f"{_where(loop)} carries reductions through iter_args (allow parallel-reductions)",
        )
    verdict = unsupported_ops([loop])
    if not verdict:
        return verdict
    analysis = _analysis(loop, analysis)
    for edge in analysis.memory:
        carried = [ref for ref in edge.carried_by if ref.op is loop]
        if not carried:
            continue
        if edge.distances is None:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        return Verdict(False, f"it carries the {describe(edge)}", edge)
    return LEGAL


def check_distribution(
    band: Sequence[Operation],
    groups: Sequence[Sequence[Operation]],
    analysis: FlowAnalysis | None = None,
) -> Verdict:
    """Can the band be distributed over ``groups`` of its innermost body (all of group 1's
    iterations, then all of group 2's, ...)? Illegal when a dependence inside the band goes
    from a later group to an earlier one: distribution would run its target first."""
    verdict = unsupported_ops(band)
    if not verdict:
        return verdict
    analysis = _analysis(band[0], analysis)
    group_of = {id(op): k for k, group in enumerate(groups) for top in group for op in top.walk()}
    for edge in analysis.memory:
        if not any(ref.op is band[0] for ref in edge.common):
            continue
        source = group_of.get(id(edge.source.op))
        target = group_of.get(id(edge.target.op))
        if source is None or target is None or source <= target:
            continue
        return Verdict(
            False,
            f"the {describe(edge)} goes from a later part of the body to an earlier one",
            edge,
        )
    return LEGAL
