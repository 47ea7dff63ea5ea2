"""Memory-based dependences between accesses, with MLIR's meaning of depth, decided exactly.

For accesses ``I`` (source) and ``J`` (destination) of the same memref, at least one a
write, with ``n`` common surrounding loop IVs, the dependence *at depth d* is the set of
instance pairs ``(s, t)`` touching the same element with

* ``d <= n``: ``s`` and ``t`` equal on the first ``d - 1`` common IVs and ``t`` later on
  IV ``d`` (carried by loop ``d``);
* ``d = n + 1``: equal on all common IVs, ``I`` before ``J`` in their innermost common block
  (loop independent).

This is ``mlir-opt -test-memref-dependence-check``'s question; the answer here comes from
ISL's integer sets, so "no dependence" is said whenever the integer set is empty and every
distance interval is the exact minimum and maximum over that set. The distance of a pair is
``iv(t) - iv(s)`` on each common loop. A query that exceeds the ISL operations budget, or
involves something the model cannot represent, is :data:`UNKNOWN`, which every client must
treat as a dependence.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine.ir.core import Module, Operation, Value
from affine.ops import ForOp, ParallelOp
from poly.context import IslBudgetExceeded, budget, coalesced
from poly.model import Access, Model, build_model
from poly.space import ordering_distances, ordering_map

NONE = "none"
DEPENDENCE = "dependence"
UNKNOWN = "unknown"

DEFAULT_MAX_OPERATIONS = 2_000_000


class AnalysisWarning(UserWarning):
    """An analysis could not decide and answered "unknown"."""


@dataclass(frozen=True)
class Bound:
    """A distance interval on one common loop; None is an infinite end."""

    low: int | None
    high: int | None

    def __str__(self) -> str:
        low = "-inf" if self.low is None else str(self.low)
        high = "+inf" if self.high is None else str(self.high)
        return f"[{low}, {high}]"


@dataclass
class Dependence:
    """The answer for one ordered pair of accesses at one depth."""

    source: Access
    target: Access
    depth: int
    num_common: int
    status: str  # NONE, DEPENDENCE or UNKNOWN
    distances: isl.Set | None = None  # distance vectors on the common loops (exact)
    relation: isl.Map | None = None  # source instance -> target instance pairs
    bounds: list[Bound] = field(default_factory=list)
    reason: str = ""

    @property
    def exists(self) -> bool:
        """True unless the analysis proved there is none (unknown counts as a dependence)."""
        return self.status != NONE

    @property
    def loop_independent(self) -> bool:
        return self.depth > self.num_common

    @property
    def exact(self) -> bool:
        """The answer is exact (no access or domain of the pair was over-approximated)."""
        return self.status != UNKNOWN and self.source.exact and self.target.exact

    def remark_value(self) -> str:
        """``false``, ``true``, ``[lb, ub]...`` as mlir-opt prints it, or ``unknown``."""
        if self.status == NONE:
            return "false"
        if self.status == UNKNOWN:
            return "unknown"
        if self.loop_independent:
            return "true"
        return "".join(str(b) for b in self.bounds)

    def distance_text(self) -> str:
        """The exact distance set as ISL text (correlations and strides included)."""
        return "" if self.distances is None else str(self.distances)

    def _repr_html_(self) -> str:
        """The answer as a table row with source positions (Jupyter's rich display)."""
        from poly import display  # lazy: start-up cost (matplotlib, for pictures)

        return display.dependence_html(self)


def explain(error: Exception, max_operations: int) -> str:
    """Why an ISL computation gave no answer, for the "unknown" it becomes."""
    if isinstance(error, IslBudgetExceeded):
        return f"ISL operations budget ({max_operations}) exceeded"
    return f"ISL failed: {error}"


class DependenceAnalysis:
    """Memory-based dependences of a module (or function), computed on demand and cached."""

    def __init__(
        self,
        root: Module | Operation | Model,
        max_operations: int = DEFAULT_MAX_OPERATIONS,
        bindings: Mapping[Value, int] | None = None,
    ) -> None:
        self.model = root if isinstance(root, Model) else build_model(root, bindings=bindings)
        self.max_operations = max_operations
        self._pairs: dict[tuple[int, int], _PairInfo] = {}

    # -- queries -----------------------------------------------------------------------------------
    def check(self, source: Access, target: Access, depth: int) -> Dependence:
        """The dependence from ``source`` to ``target`` at ``depth`` (1 .. common loops + 1)."""
        info = self._pair(source, target)
        n = info.num_common
        if not 1 <= depth <= n + 1:
            raise ValueError(f"depth {depth} out of range 1..{n + 1}")
        result = Dependence(source, target, depth, n, NONE, reason=info.reason)
        if info.status != DEPENDENCE:
            result.status = info.status
            return result
        if depth == n + 1 and not _appears_before(source.op, target.op):
            return result
        zero = zero_step_levels(source, n)
        try:
            with budget(self.max_operations, "a dependence query"):
                ordering = ordering_set(self.model, n, depth, zero)
                distances = info.distances.intersect(ordering)  # type: ignore[union-attr]  # a pair with status DEPENDENCE (checked above) has its distances
                if distances.is_empty():
                    return result
                result.status = DEPENDENCE
                result.distances = distances
                result.bounds = [bound(distances, k) for k in range(n)]
        except (IslBudgetExceeded, isl.Error) as error:
            return self._unknown(result, error)
        return result

    def relation(self, source: Access, target: Access, depth: int) -> isl.Map | None:
        """The instance pairs of the dependence at ``depth`` (None when unknown)."""
        info = self._pair(source, target)
        if info.status == UNKNOWN or info.relation is None:
            return None
        n = info.num_common
        zero = zero_step_levels(source, n)
        ordering = ordering_map(n, depth, info.source_dims, info.target_dims, zero)
        ordering = ordering.set_tuple_name(isl.dim_type.in_, source.statement.name)
        ordering = ordering.set_tuple_name(isl.dim_type.out, target.statement.name)
        return info.relation.intersect(ordering)

    def all_checks(self) -> Iterator[Dependence]:
        """Every ordered pair of numbered accesses at every depth, in mlir-opt's order."""
        accesses = self.model.numbered
        for source in accesses:
            for target in accesses:
                n = self._pair(source, target).num_common
                for depth in range(1, n + 2):
                    yield self.check(source, target, depth)

    def _repr_html_(self) -> str:
        """The pairs with a dependence, with source positions (Jupyter's rich display)."""
        from poly import display  # lazy: start-up cost (matplotlib, for pictures)

        return display.analysis_html(self)

    # -- internals ---------------------------------------------------------------------------------

    def _pair(self, source: Access, target: Access) -> _PairInfo:
        key = (id(source), id(target))
        info = self._pairs.get(key)
        if info is None:
            info = self._compute_pair(source, target)
            self._pairs[key] = info
        return info

    def _compute_pair(self, source: Access, target: Access) -> _PairInfo:
        n = num_common_ivs(source, target)
        info = _PairInfo(n, source.statement.depth, target.statement.depth)
        if source.statement.scope is not target.statement.scope:
            info.reason = "different affine scopes"
            return info
        if source.memref is not target.memref:
            return info
        if not (source.is_write or target.is_write):
            info.reason = "both accesses read"
            return info
        try:
            with budget(self.max_operations, "a dependence query"):
                relation = source.relation.apply_range(target.relation.reverse())
                if relation.is_empty():
                    return info
                info.distances = common_distances(relation, n, info.source_dims, info.target_dims)
                info.relation = relation
                info.status = DEPENDENCE
        except (IslBudgetExceeded, isl.Error) as error:
            info.status = UNKNOWN
            info.reason = explain(error, self.max_operations)
            warnings.warn(
                f"dependence from {source.op.name} to {target.op.name}: {info.reason}",
                AnalysisWarning,
                stacklevel=3,
            )
        return info

    def _unknown(self, result: Dependence, error: Exception) -> Dependence:
        result.status = UNKNOWN
        result.reason = explain(error, self.max_operations)
        warnings.warn(result.reason, AnalysisWarning, stacklevel=3)
        return result


@dataclass
class _PairInfo:
    num_common: int
    source_dims: int
    target_dims: int
    status: str = NONE
    distances: isl.Set | None = None
    relation: isl.Map | None = None
    reason: str = ""


def num_common_ivs(a: Access, b: Access) -> int:
    """Number of IVs of the loops surrounding both accesses (an affine.parallel counts once
    per IV)."""
    count = 0
    for x, y in zip(a.statement.loops, b.statement.loops):
        if x is not y:
            break
        count += len(x.regions[0].blocks[0].arguments) if x.name == "affine.parallel" else 1
    return count


def zero_step_levels(access: Access, n: int) -> tuple[int, ...]:
    """The common IV levels (of the first ``n``) whose loop has step 0: such a loop repeats
    one iteration forever, so it carries dependences of distance 0."""
    levels: list[int] = []
    level = 0
    for loop in access.statement.loops:
        if level >= n:
            break
        if loop.name == "affine.parallel":
            steps = ParallelOp(loop).steps
        else:
            steps = [ForOp(loop).step]
        for step in steps:
            if level < n and step == 0:
                levels.append(level)
            level += 1
    return tuple(levels)


def bound(distances: isl.Set, k: int) -> Bound:
    """The exact least and greatest value of dimension ``k`` of ``distances``."""
    space = distances.get_space()
    aff = isl.Aff.var_on_domain(isl.LocalSpace.from_space(space), isl.dim_type.set, k)
    low = distances.min_val(aff)
    high = distances.max_val(aff)
    return Bound(
        None if low.is_infty() or low.is_neginfty() else low.to_python(),
        None if high.is_infty() or high.is_neginfty() else high.to_python(),
    )


def is_box(distances: isl.Set, bounds: Sequence[Bound]) -> bool:
    """Is ``distances`` exactly the set of vectors within the per-dimension ``bounds``
    (for every value of the parameters)?"""
    space = distances.get_space()
    local = isl.LocalSpace.from_space(space)
    box = isl.Set.universe(space)
    for k, b in enumerate(bounds):
        for sign, end in ((1, b.low), (-1, b.high)):
            if end is not None:
                constraint = isl.Constraint.inequality_alloc(local)
                constraint = constraint.set_coefficient_val(isl.dim_type.set, k, sign)
                box = box.add_constraint(constraint.set_constant_val(-sign * end))
    return box.is_equal(distances)


def common_distances(relation: isl.Map, n: int, source_dims: int, target_dims: int) -> isl.Set:
    """``{ iv(t) - iv(s) }`` on the first ``n`` (common) IVs of the instance pairs."""
    common = relation.project_out(isl.dim_type.in_, n, source_dims - n)
    common = common.project_out(isl.dim_type.out, n, target_dims - n)
    common = common.reset_tuple_id(isl.dim_type.in_).reset_tuple_id(isl.dim_type.out)
    return coalesced(common.deltas())


def ordering_set(model: Model, n: int, depth: int, zero: tuple[int, ...] = ()) -> isl.Set:
    """Distance vectors (on ``n`` common IVs) of pairs ordered at ``depth``: zero on the
    first ``depth - 1`` IVs and positive on IV ``depth``; all zero for ``depth = n + 1``.
    On a level of ``zero`` (a loop of step 0) a later repetition has distance 0."""
    cache = model.cache
    key = ("ordering", n, depth, zero)
    ordering = cache.get(key)
    if not isinstance(ordering, isl.Set):
        ordering = cache[key] = ordering_distances(n, depth, zero)
    return ordering


def _appears_before(a: Operation, b: Operation) -> bool:
    """MLIR's ``srcAppearsBeforeDstInAncestralBlock``: in the innermost block holding both,
    the ancestor of ``a`` comes strictly before the ancestor of ``b``."""
    a_chain: list[Operation] = [a]
    while a_chain[-1].parent_op is not None:
        a_chain.append(a_chain[-1].parent_op)
    blocks = {id(op.parent): op for op in a_chain if op.parent is not None}
    current: Operation | None = b
    while current is not None:
        block = current.parent
        if block is not None and id(block) in blocks:
            a_ancestor = blocks[id(block)]
            if a_ancestor is current:
                return False
            return block.index_of(a_ancestor) < block.index_of(current)
        current = current.parent_op
    return False
