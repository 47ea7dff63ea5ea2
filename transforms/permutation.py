"""Loop permutation and interchange: the check, and the ``test-loop-permutation`` and
``affine-loop-interchange`` passes (the rewrite is :func:`transforms.loop_utils.permute_band`).

Invariant: a permutation runs when no dependence inside the band has a permuted distance
vector that is lexicographically negative.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affine.ir.core import Module, Operation
from affine.ir.labels import induction_var, value_label
from poly.flow import FlowAnalysis
from poly.legality import Verdict, analysis_for, band_structure, violations
from poly.space import lex_negative_set, permutation_map
from poly.tile_model import contiguity_order
from transforms.loop_pass import (
    analysis_of,
    attempt,
    functions,
    nests_of_depth,
    refuse,
    remark_nests_without_depth,
)
from transforms.loop_utils import enclosing_function, get_tileable_bands, permute_band
from transforms.registry import PassContext, PassOptions, option

_NOT_PERMUTED = "loop band not permuted"


def check_permutation(
    band: Sequence[Operation], permutation: Sequence[int], analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can the perfect band be permuted (``permutation[i]`` = new position of loop i, as in
    MLIR's ``permuteLoops``)? Illegal when a permuted distance vector is lexicographically
    negative."""
    if sorted(permutation) != list(range(len(band))):
        return Verdict(False, f"{list(permutation)} is not a permutation of {len(band)} loops")
    verdict = band_structure(band)
    if not verdict:
        return verdict
    analysis = analysis_for(band[0], analysis)
    n = len(band)
    order = [0] * n
    for old, new in enumerate(permutation):
        order[new] = old
    return violations(analysis, band, lex_negative_set(n), permutation_map(order))


def apply_permutation(
    band: list[Operation],
    permutation: Sequence[int],
    analysis: FlowAnalysis,
    context: PassContext,
) -> None:
    verdict: Verdict = check_permutation(band, permutation, analysis)
    if not verdict:
        refuse(context, band[0], _NOT_PERMUTED, verdict.reason)
        return
    attempt(context, band[0], _NOT_PERMUTED, lambda: permute_band(band, permutation))


@dataclass
class LoopPermutation(PassOptions):
    """``-test-loop-permutation``: permute every perfect nest of ``len(permutation-map)``
    loops (``permutation-map[i]`` is the new position of loop ``i``) where legal. The
    legality check always runs (``check-validity`` is accepted for compatibility)."""

    name = "test-loop-permutation"
    permutation_map: tuple[int, ...] = option((), permutation=True)
    check_validity: bool = True

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        if not self.permutation_map:
            return module
        size = len(self.permutation_map)
        bands = nests_of_depth(module, size)
        allowed = functions(module, context)
        for allowed_function in allowed:
            option = f"permutation-map ({size} entries)"
            remark_nests_without_depth(
                context, allowed_function, bands, size, _NOT_PERMUTED, option
            )
        analyses = {}
        for band in bands:
            if band[0].parent is None:  # moved away by an earlier permutation
                continue
            function = enclosing_function(band[0])
            if function not in allowed:
                continue
            if function not in analyses:
                analyses[function] = analysis_of(function)
            apply_permutation(band, self.permutation_map, analyses[function], context)
        return module


@dataclass
class LoopInterchange(PassOptions):
    """``-affine-loop-interchange``: with ``permutation-map``, as ``test-loop-permutation``
    on outermost perfect bands; without, each outermost band is reordered so that its
    innermost loop has the most contiguous or invariant accesses, where legal."""

    name = "affine-loop-interchange"
    permutation_map: tuple[int, ...] = option((), permutation=True)

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            analysis = analysis_of(function)
            for band in get_tileable_bands(function):
                if len(band) < 2:
                    continue
                if self.permutation_map:
                    if len(self.permutation_map) == len(band):
                        apply_permutation(band, self.permutation_map, analysis, context)
                    else:
                        names = ", ".join(value_label(induction_var(loop)) for loop in band)
                        reason = (
                            f"permutation-map has {len(self.permutation_map)} entries for "
                            f"this band of {len(band)} loops ({names})"
                        )
                        refuse(context, band[0], _NOT_PERMUTED, reason)
                    continue
                order = contiguity_order(band, analysis.model)
                if list(order) == sorted(order):
                    continue
                permutation = [order.index(k) for k in range(len(band))]
                apply_permutation(band, permutation, analysis, context)
        return module
