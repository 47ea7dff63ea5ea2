"""Loop analysis of ``affine.for``: bounds as value maps and trip counts (MLIR's
LoopAnalysis: ``getTripCountMapAndOperands``, ``getConstantTripCount``,
``getLargestDivisorOfTripCount``).

Invariant: a trip count is the minimum over the upper bound's results of
``ceildiv(ub - lb, step)``; a negative count means no iteration.
"""

from __future__ import annotations

from math import gcd

from affine.analysis.value_map import ValueMap, difference
from affine.dialects.affine_dialect import ForOp
from affine.ir.core import Operation
from affine.math.affine_map import AffineMap
from affine.math.expr import CONST

# MLIR's getLargestDivisorOfTripCount reports a zero-trip loop as divisible by 2^64 - 1.
_ZERO_TRIP_DIVISOR = 2**64 - 1


def lower_bound(loop: Operation) -> ValueMap:
    f = ForOp(loop)
    return ValueMap(f.lower_bound_map, tuple(f.lower_bound_operands))


def upper_bound(loop: Operation) -> ValueMap:
    f = ForOp(loop)
    return ValueMap(f.upper_bound_map, tuple(f.upper_bound_operands))


def trip_count(loop: Operation) -> ValueMap | None:
    """The trip count of an ``affine.for`` as a value map with one result per upper bound
    result (the count is their minimum); None for a multi-result lower bound.  MLIR's
    ``getTripCountMapAndOperands``."""
    f = ForOp(loop)
    step = f.step
    if f.has_constant_lower_bound() and f.has_constant_upper_bound():
        span = max(0, f.constant_upper_bound - f.constant_lower_bound)
        return ValueMap(AffineMap.constant_map(-(-span // step)), ())
    lb = f.lower_bound_map
    if lb.num_results != 1:
        return None
    ub = upper_bound(loop)
    splat = AffineMap.get(lb.num_dims, lb.num_symbols, [lb.results[0]] * ub.map.num_results)
    diff = difference(ub, ValueMap(splat, tuple(f.lower_bound_operands)))
    m = diff.map
    return ValueMap(
        AffineMap.get(m.num_dims, m.num_symbols, [r.ceildiv(step) for r in m.results]),
        diff.operands,
    )


def constant_trip_count(loop: Operation) -> int | None:
    """The number of iterations when every trip count result is constant (their minimum;
    a negative count is 0), else None.  MLIR's ``getConstantTripCount`` (which reads a
    negative count as a huge unsigned one)."""
    counts = trip_count(loop)
    if counts is None or not counts.map.is_constant():
        return None
    return max(0, min(counts.map.constant_results))


def largest_divisor_of_trip_count(loop: Operation) -> int:
    """A number known to divide the trip count (MLIR's ``getLargestDivisorOfTripCount``:
    a zero-trip loop counts as divisible by 2^64 - 1)."""
    counts = trip_count(loop)
    if counts is None:
        return 1
    result = 0
    for r in counts.map.results:
        if r.kind == CONST:
            this = r.value if r.value > 0 else _ZERO_TRIP_DIVISOR
        else:
            this = r.largest_known_divisor()
        result = gcd(result, this)
    return result
