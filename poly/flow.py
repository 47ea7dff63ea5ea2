"""Dependences between all accesses of an affine scope, by kind, and what they mean for loops.

Each access gets its own instance space ``A<k>[ivs]`` (``k`` its index in
:attr:`Model.accesses`) scheduled like its statement, reads before writes within one op.
On these:

* **memory-based** dependences: every earlier/later pair of instances touching the same
  element, at least one writing (``RAW``, ``WAR``, ``WAW``; ``RAR`` on request, for
  locality);
* **value-based** dependences: ``RAW`` from the last write before each read (must-writes in
  between kill older values; may-writes do not), ``WAW`` between consecutive writes,
  ``WAR`` from reads to the next write (the kinds of Polly's DependenceInfo).

For each dependence: the common loops, its exact distance set on them, the loops that carry
it (a loop carries a pair when the pair agrees on the outer common loops and the target is
at a later iteration of that loop) and whether it is loop independent. A loop is
*parallel* when it carries no memory-based dependence; *reduction only* when everything it
carries is between the load and the store of one memory reduction
(``X[f] = X[f] op v``) or through ``iter_args`` reductions. A query that exceeds the ISL
budget falls back (value-based to memory-based; memory-based to "every pair of accesses of
a memref with a write, carried by every common loop") and is marked unknown.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import islpy as isl

from affine.analysis.reductions import COMBINER_KINDS, depends_on, loop_reductions
from affine.ir.core import Module, Operation, OpResult, Value
from affine.ir.labels import loop_label
from affine.ops import ForOp, ParallelOp
from poly.context import IslBudgetExceeded, budget, isl_context
from poly.deps import (
    DEFAULT_MAX_OPERATIONS,
    AnalysisWarning,
    Bound,
    bound,
    common_distances,
    is_box,
    num_common_ivs,
    ordering_set,
)
from poly.model import READ, WRITE, Access, Model, Scope, build_model

RAW, WAR, WAW, RAR = "RAW", "WAR", "WAW", "RAR"


@dataclass
class LoopRef:
    """One IV of a loop: ``op`` with ``index`` (always 0 for ``affine.for``)."""

    op: Operation
    index: int = 0

    @property
    def label(self) -> str:
        """``%i at k.mlir:4:3``: the IV as written and where its loop is."""
        return loop_label(self.op, self.index)

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"<LoopRef {self.label}>"


@dataclass
class Edge:
    """A dependence from ``source``'s instances to ``target``'s."""

    kind: str
    source: Access
    target: Access
    value_based: bool
    relation: isl.Map | None  # A<src>[ivs] -> A<dst>[ivs]; None when unknown
    common: list[LoopRef]
    distances: isl.Set | None  # on the common IVs
    carried: list[int] = field(default_factory=list)  # indices into ``common``
    loop_independent: bool = False
    unknown: bool = False

    @property
    def exact(self) -> bool:
        return not self.unknown and self.source.exact and self.target.exact

    def __repr__(self) -> str:
        how = "value" if self.value_based else "memory"
        return (
            f"<{self.kind} ({how}) on {self.source.memref_label}: {self.source.op.name} at "
            f"{self.source.op.loc} -> {self.target.op.name} at {self.target.op.loc} "
            f"{self.direction()}>"
        )

    def exact_distances(self) -> str | None:
        """The distance set in ISL text when the per-loop :meth:`bounds` do not describe it
        exactly (distances ``(d, -d)``, parities, parameters); None when they do."""
        if self.distances is None or is_box(self.distances, self.bounds()):
            return None
        return str(self.distances)

    @property
    def carried_by(self) -> list[LoopRef]:
        return [self.common[k] for k in self.carried]

    @property
    def depth(self) -> int:
        """The outermost depth at which it holds (MLIR's numbering: common loops + 1 for a
        loop-independent one)."""
        if self.carried:
            return self.carried[0] + 1
        return len(self.common) + 1

    def bounds(self) -> list[Bound]:
        if self.distances is None:
            return [Bound(None, None) for _ in self.common]
        return [bound(self.distances, k) for k in range(len(self.common))]

    def direction(self) -> str:
        """Per common loop: ``<`` (later), ``=`` (same), ``>``, or a combination like ``<=``;
        ``*`` when anything is possible."""
        symbols = []
        for b in self.bounds():
            if b.low is None and b.high is None:
                symbols.append("*")
            elif b.low is not None and b.low > 0:
                symbols.append("<")
            elif b.high is not None and b.high < 0:
                symbols.append(">")
            elif b.low == 0 and b.high == 0:
                symbols.append("=")
            elif b.low is not None and b.low >= 0:
                symbols.append("<=")
            elif b.high is not None and b.high <= 0:
                symbols.append(">=")
            else:
                symbols.append("*")
        return "(" + ", ".join(symbols) + ")"


@dataclass
class LoopInfo:
    """What the dependences say about one loop IV."""

    loop: LoopRef
    carried: list[Edge]  # memory-based edges it carries
    parallel: bool
    reduction_only: bool
    iter_args_reductions: list[str]  # combiner op names of its iter_args (all reductions)
    sequential_iter_args: bool  # iter_args that are not reductions


class FlowAnalysis:
    """All dependences of every scope in ``root``, memory- and value-based (the latter
    skipped with ``value_based=False``: legality needs only the memory-based ones)."""

    def __init__(
        self,
        root: Module | Operation | Model,
        include_rar: bool = False,
        max_operations: int = DEFAULT_MAX_OPERATIONS,
        bindings: Mapping[Value, int] | None = None,
        value_based: bool = True,
    ) -> None:
        self.model = root if isinstance(root, Model) else build_model(root, bindings=bindings)
        self.include_rar = include_rar
        self.max_operations = max_operations
        self.value_based = value_based
        self.memory: list[Edge] = []
        self.value: list[Edge] = []
        for scope in self.model.scopes.values():
            self._analyse(scope)

    @property
    def ctx(self) -> isl.Context:
        return self.model.ctx

    # -- building ----------------------------------------------------------------------------
    def _analyse(self, scope: Scope) -> None:
        accesses = [a for a in self.model.accesses if a.statement.scope is scope]
        if not accesses:
            return
        self._index = {id(a): k for k, a in enumerate(self.model.accesses)}
        width = max(len(a.statement.schedule_vector()) for a in accesses)
        schedule = _union(
            self.ctx,
            (
                a.statement.schedule_map(width, self._name(a), (1 if a.is_write else 0,))
                for a in accesses
            ),
        )
        reads = _union(self.ctx, (self._renamed(a) for a in accesses if a.kind == READ))
        writes = _union(self.ctx, (self._renamed(a) for a in accesses if a.kind == WRITE))
        must_writes = _union(
            self.ctx, (self._renamed(a) for a in accesses if a.kind == WRITE and a.must)
        )
        by_name = {self._name(a): a for a in accesses}
        memory: dict[str, isl.UnionMap] = {}
        try:
            with budget(self.max_operations, "memory-based dependences"):
                before = schedule.lex_lt_union_map(schedule)
                pairs = [(RAW, writes, reads), (WAR, reads, writes), (WAW, writes, writes)]
                if self.include_rar:
                    pairs.append((RAR, reads, reads))
                for kind, sources, sinks in pairs:
                    memory[kind] = sources.apply_range(sinks.reverse()).intersect(before)
                    self.memory.extend(self._edges(kind, memory[kind], by_name, value_based=False))
        except (IslBudgetExceeded, isl.Error) as error:
            self._fallback_memory(accesses, error)
            self.value.extend(e for e in self.memory if e.source.statement.scope is scope)
            return
        if not self.value_based:
            return
        try:
            with budget(self.max_operations, "value-based dependences"):
                # A must-write kills older values of its element: RAW keeps the writes since
                # the last must-write before each read, WAW likewise for writes, WAR the
                # reads since the last must-write before each write.
                kills_before_reads = must_writes.apply_range(reads.reverse()).intersect(before)
                kills_before_writes = must_writes.apply_range(writes.reverse()).intersect(before)
                times = isl.Space.set_alloc(isl_context(), 0, width + 1)
                flows = (
                    (RAW, _unkilled(memory[RAW], kills_before_reads, schedule, times)),
                    (WAW, _unkilled(memory[WAW], kills_before_writes, schedule, times)),
                    (WAR, _unkilled(memory[WAR], kills_before_writes, schedule, times)),
                )
                for kind, relation in flows:
                    self.value.extend(self._edges(kind, relation, by_name, value_based=True))
        except (IslBudgetExceeded, isl.Error) as error:
            warnings.warn(
                f"value-based dependences fall back to memory-based ones: {error}",
                AnalysisWarning,
                stacklevel=3,
            )
            self.value.extend(e for e in self.memory if e.source.statement.scope is scope)

    def _name(self, a: Access) -> str:
        return f"A{self._index[id(a)]}"

    def _renamed(self, a: Access) -> isl.Map:
        return a.relation.set_tuple_name(isl.dim_type.in_, self._name(a))

    def _edges(
        self, kind: str, relation: isl.UnionMap, by_name: dict[str, Access], value_based: bool
    ) -> list[Edge]:
        edges = []
        maps = relation.get_map_list()
        for m in (maps.get_at(k) for k in range(maps.n_map())):
            if m.is_empty():
                continue
            source = by_name[m.get_tuple_name(isl.dim_type.in_)]
            target = by_name[m.get_tuple_name(isl.dim_type.out)]
            common = _common_loops(source, target)
            n = len(common)
            distances = common_distances(m, n, source.statement.depth, target.statement.depth)
            edge = Edge(kind, source, target, value_based, m, common, distances)
            for k in range(n):
                if not distances.intersect(ordering_set(self.model, n, k + 1)).is_empty():
                    edge.carried.append(k)
            edge.loop_independent = not distances.intersect(
                ordering_set(self.model, n, n + 1)
            ).is_empty()
            edges.append(edge)
        return edges

    def _fallback_memory(self, accesses: list[Access], error: Exception) -> None:
        warnings.warn(
            f"memory-based dependences could not be computed ({error}); every pair of "
            "accesses of a memref with a write is assumed to depend",
            AnalysisWarning,
            stacklevel=4,
        )
        for source in accesses:
            for target in accesses:
                if source.memref is not target.memref or not (source.is_write or target.is_write):
                    continue
                kind = (
                    RAW
                    if source.is_write and not target.is_write
                    else WAR
                    if target.is_write and not source.is_write
                    else WAW
                )
                common = _common_loops(source, target)
                edge = Edge(kind, source, target, False, None, common, None, unknown=True)
                edge.carried = list(range(len(common)))
                edge.loop_independent = True
                self.memory.append(edge)

    def _repr_html_(self) -> str:
        """Dependences, loop verdicts and the graph's picture (Jupyter's rich display)."""
        from poly import display  # lazy: start-up cost (matplotlib, for pictures)

        return display.flow_html(self)

    # -- loops ---------------------------------------------------------------------------------
    def loops(self) -> list[LoopInfo]:
        """Every loop IV of the model (outermost first, walk order), with its verdicts."""
        refs: dict[tuple[int, int], LoopRef] = {}
        for s in self.model.statements:
            for ref in _loop_refs(s.loops):
                refs.setdefault((id(ref.op), ref.index), ref)
        reductions = memory_reduction_pairs(self.model)
        infos = []
        for ref in refs.values():
            carried = [
                e
                for e in self.memory
                if any(c.op is ref.op and c.index == ref.index for c in e.carried_by)
            ]
            combiners, sequential = iter_args_reductions(ref.op)
            sequential = sequential or _has_zero_step(ref)  # repeats one iteration forever
            reduction = bool(carried or combiners) and all(
                frozenset((id(e.source), id(e.target))) <= reductions.get(id(e.source), frozenset())
                for e in carried
            )
            infos.append(
                LoopInfo(
                    ref,
                    carried,
                    parallel=not carried and not combiners and not sequential,
                    reduction_only=reduction and not sequential,
                    iter_args_reductions=combiners,
                    sequential_iter_args=sequential,
                )
            )
        return infos

    def loop_info(self, op: Operation, index: int = 0) -> LoopInfo:
        for info in self.loops():
            if info.loop.op is op and info.loop.index == index:
                return info
        raise KeyError(f"no statement inside {op.name} at {op.loc}")


def _unkilled(
    dependences: isl.UnionMap, kills: isl.UnionMap, schedule: isl.UnionMap, time_space: isl.Space
) -> isl.UnionMap:
    """The pairs ``source -> sink`` of ``dependences`` with no instance of ``kills`` (a
    ``kill -> sink`` relation of earlier instances) strictly between them in time.

    The last kill before each sink is a lexicographic maximum of times; a source survives
    when it is not older than that kill (it may be the kill itself). This is what ISL's
    ``compute_flow`` answers, computed with plain Presburger operations (``compute_flow``
    was seen to drop a last writer depending on the order of its inputs).
    """
    last_kill = kills.reverse().apply_range(schedule).lexmax()  # sink -> time of last kill
    times = schedule.range()
    not_older = isl.UnionMap.from_map(isl.Map.lex_le(time_space))
    not_older = not_older.intersect_domain(times).intersect_range(times)
    sources = dependences.reverse()  # sink -> source
    after_kill = last_kill.apply_range(not_older).apply_range(schedule.reverse())
    survivors = sources.intersect(after_kill)
    unkilled = sources.subtract_domain(last_kill.domain())
    return survivors.union(unkilled).reverse()


def _union(ctx: isl.Context, maps: Iterable[isl.Map]) -> isl.UnionMap:
    result = isl.UnionMap.empty(isl.Space.params_alloc(ctx, 0))
    for m in maps:
        result = result.union(isl.UnionMap.from_map(m))
    return result


def _loop_refs(loops: list[Operation]) -> list[LoopRef]:
    refs: list[LoopRef] = []
    for loop in loops:
        count = len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1
        refs.extend(LoopRef(loop, k) for k in range(count))
    return refs


def _has_zero_step(ref: LoopRef) -> bool:
    if ref.op.name == "affine.parallel":
        return ParallelOp(ref.op).steps[ref.index] == 0
    return ForOp(ref.op).step == 0


def _common_loops(a: Access, b: Access) -> list[LoopRef]:
    n = num_common_ivs(a, b)
    return _loop_refs(a.statement.loops)[:n]


def iter_args_reductions(loop: Operation) -> tuple[list[str], bool]:
    """Combiners of an ``affine.for``'s ``iter_args`` that are reductions
    (:func:`affine.analysis.reductions.loop_reductions`), and whether any iter_arg is not one."""
    if loop.name != "affine.for":
        return [], False
    iter_args = loop.regions[0].blocks[0].arguments[1:]
    found = loop_reductions(loop)
    return [r.combiner.name for r in found], len(found) != len(iter_args)


def memory_reduction_pairs(model: Model) -> dict[int, frozenset[int]]:
    """For each access in a memory reduction ``X[f] = combiner(X[f], v)`` (a load and a store
    of the same element at the same instance, the stored value one combiner of the loaded
    value and something independent of it), the ids of both accesses."""
    pairs: dict[int, frozenset[int]] = {}
    loads: dict[Value, Access] = {
        a.op.results[0]: a for a in model.accesses if a.kind == READ and a.op.results
    }
    for store in model.accesses:
        if store.kind != WRITE or store.op.name not in ("affine.store", "memref.store"):
            continue
        stored = store.op.operands[0]
        if not isinstance(stored, OpResult) or stored.owner.name not in COMBINER_KINDS:
            continue
        for operand in stored.owner.operands:
            load = loads.get(operand)
            if load is None or load.memref is not store.memref:
                continue
            if load.statement.loops != store.statement.loops:
                continue
            others = [v for v in stored.owner.operands if v is not operand]
            loops = store.statement.loops
            if len(others) != 1 or not loops or depends_on(others[0], {operand}, loops[-1]):
                continue
            same = load.relation.set_tuple_name(isl.dim_type.in_, "X").is_equal(
                store.relation.set_tuple_name(isl.dim_type.in_, "X")
            )
            if same:
                ids = frozenset((id(load), id(store)))
                pairs[id(load)] = ids
                pairs[id(store)] = ids
    return pairs
