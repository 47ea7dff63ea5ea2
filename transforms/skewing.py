"""Loop skewing: the rewrite and the ``affine-loop-skew`` pass.

Invariant: skewing keeps the order of every pair of iterations (it only renames the
skewed loop's induction variable), so it is always legal; it makes stencil bands tileable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from affine.analysis.loops import lower_bound, upper_bound
from affine.analysis.value_map import (
    ValueMap,
    as_read_back,
    canonicalize,
    simplify_affine_expr,
    simplify_affine_map,
)
from affine.ir.core import Module, Operation
from affine.math.affine_map import AffineMap
from affine.math.expr import constant, dim
from affine.ops import ForOp
from transforms.errors import TransformError
from transforms.loop_pass import attempt, functions, nests_of_depth, remark_nests_without_depth
from transforms.loop_utils import enclosing_function, is_loop, located, replace_iv, set_bound
from transforms.registry import PassContext, PassOptions, option


def skew_band(band: Sequence[Operation], factors: Sequence[int]) -> Operation:
    """Skew the last loop of ``band`` by the induction variables of the others: its new
    induction variable is ``j' = j + sum_k factors[k] * i_k``.  Its bounds get
    ``+ sum_k factors[k] * i_k`` and every use of ``j`` becomes ``j' - sum_k ...``, composed
    into the maps of affine ops (other uses read an ``affine.apply``).  ``band[:-1]`` must
    enclose the last loop (not necessarily perfectly).  Returns the skewed loop."""
    band = list(band)
    if len(factors) != len(band) - 1:
        raise TransformError(f"skewing needs {len(band) - 1} factors, got {len(factors)}")
    target = band[-1]
    ancestors = list(target.ancestors())
    for loop in band[:-1]:
        if not is_loop(loop) or loop not in ancestors:
            raise located(loop, "the skewing loops must enclose the skewed loop")
    if not is_loop(target):
        raise located(target, f"expected an affine.for, got '{target.name}'")
    pairs = [(ForOp(loop).induction_var, f) for loop, f in zip(band, factors) if f]
    if not pairs:
        return target
    outer_ivs = tuple(iv for iv, _ in pairs)
    k = len(pairs)
    bounds = []
    for vm in (lower_bound(target), upper_bound(target)):
        m = vm.map
        offset = sum((dim(m.num_dims + i) * fac for i, (_, fac) in enumerate(pairs)), constant(0))
        shifted = AffineMap.get(m.num_dims + k, m.num_symbols, [r + offset for r in m.results])
        shifted, operands = canonicalize(
            shifted, [*vm.dim_operands, *outer_ivs, *vm.symbol_operands], promote_symbols=False
        )
        bounds.append(ValueMap(as_read_back(simplify_affine_map(shifted)), tuple(operands)))
    iv = ForOp(target).induction_var
    shift = sum((dim(1 + i) * fac for i, (_, fac) in enumerate(pairs)), constant(0))
    inverse = AffineMap.get(1 + k, 0, [simplify_affine_expr(dim(0) - shift, 1 + k, 0)])
    replace_iv(ForOp(target).body, iv, ValueMap(inverse, (iv, *outer_ivs)))  # may refuse
    set_bound(target, "lower", bounds[0])
    set_bound(target, "upper", bounds[1])
    return target


@dataclass
class LoopSkew(PassOptions):
    """``-affine-loop-skew``: in every perfect band of ``len(skew-factors) + 1`` loops,
    the innermost IV becomes ``j + sum_k factors[k] * i_k`` (always legal: skewing keeps
    the order of every pair of iterations; it makes stencil bands tileable)."""

    name = "affine-loop-skew"
    skew_factors: tuple[int, ...] = option((1,), non_empty=True)

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        size = len(self.skew_factors) + 1
        allowed = functions(module, context)
        bands = nests_of_depth(module, size)
        what = "loop band not skewed"
        for function in allowed:
            option = f"skew-factors ({len(self.skew_factors)} factors)"
            remark_nests_without_depth(context, function, bands, size, what, option)
        for band in bands:
            if band[0].parent is None or enclosing_function(band[0]) not in allowed:
                continue
            attempt(context, band[0], what, partial(skew_band, band, self.skew_factors))
        return module
