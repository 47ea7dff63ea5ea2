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
from poly.model import READ, WRITE, Access, Model, build_model

RAW, WAR, WAW, RAR = "RAW", "WAR", "WAW", "RAR"
KINDS = (RAW, WAR, WAW, RAR)


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
    skipped with ``value_based=False``: legality needs only the memory-based ones; the
    former, but for those within one nest, left to the first use of :attr:`memory` with
    ``memory_based=False``).

    The work is per buffer (accesses of different memrefs are never paired) and per *nest*
    (the accesses under one op of the scope's block; nests run one after the other). The
    value-based dependences into a nest are computed on a *window*: the nest and the nests
    before it back to the latest one from which the exact must-writes in between cover every
    element the nest touches, as no older instance can reach it. On code whose nests
    overwrite what they read, the work then grows with the number of nests, not its square.
    Memory-based dependences relate every earlier nest to every later one touching the same
    elements (their number grows with the square); those within a nest, all the loop
    verdicts need, come with the value-based ones. :attr:`pair_tests` counts the ordered
    pairs of accesses handed to ISL."""

    def __init__(
        self,
        root: Module | Operation | Model,
        include_rar: bool = False,
        max_operations: int = DEFAULT_MAX_OPERATIONS,
        bindings: Mapping[Value, int] | None = None,
        value_based: bool = True,
        memory_based: bool = True,
    ) -> None:
        self.model = root if isinstance(root, Model) else build_model(root, bindings=bindings)
        self.include_rar = include_rar
        self.max_operations = max_operations
        self.value_based = value_based
        self.value: list[Edge] = []
        self.pair_tests = 0
        self._index = {id(a): k for k, a in enumerate(self.model.accesses)}
        self._buffers = _buffer_nests(self.model, include_rar)
        self._memory: list[Edge] | None = None
        self._near: list[Edge] = []  # memory-based, from the nests of each nest's window
        self._before_windows: list[tuple[list[list[Access]], int, int]] = []  # nests, first, m
        for nests in self._buffers:
            for m in range(len(nests)):
                first = self._cover_start(nests, m) if value_based else 0
                window = [a for nest in nests[first : m + 1] for a in nest]
                self._near.extend(self._dependences(window, nests[m], value_based))
                if first:
                    self._before_windows.append((nests, first, m))
        self.value.sort(key=self._edge_order)
        self._within_nests = [e for e in self._near if _same_nest(e.source, e.target)]
        if memory_based:
            self.memory  # noqa: B018  # computed now, its warnings with the others

    @property
    def ctx(self) -> isl.Context:
        return self.model.ctx

    @property
    def memory(self) -> list[Edge]:
        """Every memory-based dependence, by kind then source and target."""
        if self._memory is None:
            self._memory = self._near + [
                edge
                for nests, first, m in self._before_windows
                for edge in self._dependences(
                    [a for nest in nests[:first] for a in nest], nests[m], value_based=False
                )
            ]
            self._memory.sort(key=self._edge_order)
        return self._memory

    # -- building ----------------------------------------------------------------------------
    def _edge_order(self, edge: Edge) -> tuple[int, int, int]:
        return (KINDS.index(edge.kind), self._index[id(edge.source)], self._index[id(edge.target)])

    def _cover_start(self, nests: list[list[Access]], m: int) -> int:
        """The latest nest ``k <= m`` such that the exact must-writes of nests ``k .. m-1``
        write every element nest ``m`` touches (0 when none does, or ISL gives no answer):
        no instance before nest ``k`` is the last to touch an element before nest ``m``."""
        try:
            with budget(self.max_operations, "the nests a nest's values come from"):
                touched = _union_set(self.ctx, (a.relation.range() for a in nests[m]))
                written = _union_set(self.ctx, ())
                for k in range(m - 1, -1, -1):
                    for a in nests[k]:
                        if a.is_write and a.must and a.exact:
                            written = written.union(isl.UnionSet.from_set(a.relation.range()))
                    if touched.is_subset(written):
                        return k
        except (IslBudgetExceeded, isl.Error):
            pass
        return 0

    def _dependences(
        self, sources: list[Access], sinks: list[Access], value_based: bool
    ) -> list[Edge]:
        """The dependences of one buffer from ``sources`` (all of the nests they are in) into
        ``sinks`` (one nest's accesses, among the sources when ``value_based``): the memory-
        based ones returned, the value-based ones (where the sources hold every instance that
        may come last before a sink) added to :attr:`value`."""
        accesses = list({id(a): a for a in [*sources, *sinks]}.values())
        width = max(len(a.statement.schedule_vector()) for a in accesses)
        times = {
            id(a): a.statement.schedule_map(width, self._name(a), (1 if a.is_write else 0,))
            for a in accesses
        }
        schedule = _union(self.ctx, times.values())
        sink_schedule = _union(self.ctx, (times[id(a)] for a in sinks))
        reads, writes, must_writes = self._by_kind(sources)
        sink_reads, sink_writes, _ = self._by_kind(sinks)
        by_name = {self._name(a): a for a in accesses}
        self.pair_tests += _pair_count(sources, sinks, self.include_rar)
        memory: dict[str, isl.UnionMap] = {}
        edges: list[Edge] = []
        try:
            with budget(self.max_operations, "memory-based dependences"):
                before = schedule.lex_lt_union_map(sink_schedule)
                pairs = [(RAW, writes, sink_reads), (WAR, reads, sink_writes)]
                pairs.append((WAW, writes, sink_writes))
                if self.include_rar:
                    pairs.append((RAR, reads, sink_reads))
                for kind, earlier, later in pairs:
                    memory[kind] = earlier.apply_range(later.reverse()).intersect(before)
                    edges.extend(self._edges(kind, memory[kind], by_name, value_based=False))
        except (IslBudgetExceeded, isl.Error) as error:
            edges = self._fallback_memory(sources, sinks, error)
            if value_based:
                self.value.extend(edges)
            return edges
        if not value_based:
            return edges
        value: list[Edge] = []
        try:
            with budget(self.max_operations, "value-based dependences"):
                # A must-write kills older values of its element: RAW keeps the writes since
                # the last must-write before each read, WAW likewise for writes, WAR the
                # reads since the last must-write before each write.
                kills_before_reads = must_writes.apply_range(sink_reads.reverse()).intersect(before)
                kills_before_writes = must_writes.apply_range(sink_writes.reverse()).intersect(
                    before
                )
                time = isl.Space.set_alloc(isl_context(), 0, width + 1)
                flows = (
                    (RAW, _unkilled(memory[RAW], kills_before_reads, schedule, time)),
                    (WAW, _unkilled(memory[WAW], kills_before_writes, schedule, time)),
                    (WAR, _unkilled(memory[WAR], kills_before_writes, schedule, time)),
                )
                for kind, relation in flows:
                    value.extend(self._edges(kind, relation, by_name, value_based=True))
        except (IslBudgetExceeded, isl.Error) as error:
            warnings.warn(
                f"value-based dependences fall back to memory-based ones: {error}",
                AnalysisWarning,
                stacklevel=3,
            )
            value = edges
        self.value.extend(value)
        return edges

    def _by_kind(self, accesses: list[Access]) -> tuple[isl.UnionMap, isl.UnionMap, isl.UnionMap]:
        """The reads, the writes and the must-writes of ``accesses``, each on its own tuple."""
        reads = _union(self.ctx, (self._renamed(a) for a in accesses if a.kind == READ))
        writes = _union(self.ctx, (self._renamed(a) for a in accesses if a.kind == WRITE))
        must_writes = _union(
            self.ctx, (self._renamed(a) for a in accesses if a.kind == WRITE and a.must)
        )
        return reads, writes, must_writes

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

    def _fallback_memory(
        self, accesses: list[Access], sinks: list[Access], error: Exception
    ) -> list[Edge]:
        warnings.warn(
            f"memory-based dependences could not be computed ({error}); every pair of "
            "accesses of a memref with a write is assumed to depend",
            AnalysisWarning,
            stacklevel=4,
        )
        edges = []
        for source in accesses:
            for target in sinks:
                if not (source.is_write or target.is_write):
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
                edges.append(edge)
        return edges

    def sole_writer(self, read: Access, same_loops: int) -> Access | None:
        """The one write every instance of ``read`` takes its value from, when there is
        one: exact value-based flow from a single access, covering every instance of
        ``read`` (none reads what was there before the scope), source and read in the same
        iteration of their ``same_loops`` outermost loops; None otherwise."""
        edges = [e for e in self.value if e.kind == RAW and e.target is read]
        if not edges or any(not e.exact or e.relation is None for e in edges):
            return None
        sources = {id(e.source): e.source for e in edges}
        if len(sources) != 1:
            return None
        relations = [e.relation for e in edges if e.relation is not None]
        reached = relations[0].range()
        for r in relations[1:]:
            reached = reached.union(r.range())
        instances = self._renamed(read).domain()
        if not instances.is_subset(reached):
            return None
        for r in relations:
            same = isl.Map.universe(r.get_space())
            for k in range(same_loops):
                same = same.equate(isl.dim_type.in_, k, isl.dim_type.out, k)
            if not r.is_subset(same):
                return None
        return next(iter(sources.values()))

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
        carried_by: dict[tuple[int, int], list[Edge]] = {}
        for edge in sorted(self._within_nests, key=self._edge_order):
            for c in edge.carried_by:
                carried_by.setdefault((id(c.op), c.index), []).append(edge)
        infos = []
        for ref in refs.values():
            carried = carried_by.get((id(ref.op), ref.index), [])
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
    sources = dependences.reverse()  # sink -> source
    kill_time = sources.domain_map().apply_range(last_kill)  # [sink -> source] -> kill time
    source_time = sources.range_map().apply_range(schedule)  # [sink -> source] -> its time
    not_older = isl.UnionSet.from_set(isl.Map.lex_le(time_space).wrap())
    survivors = kill_time.range_product(source_time).intersect_range(not_older).domain().unwrap()
    unkilled = sources.subtract_domain(last_kill.domain())
    return survivors.union(unkilled).reverse()


def _buffer_nests(model: Model, include_rar: bool) -> list[list[list[Access]]]:
    """The accesses of each buffer of each scope (those with a write, or all with
    ``include_rar``), grouped by nest (the op of the scope's block holding them) in order."""
    groups: dict[tuple[int, str], dict[int, list[Access]]] = {}
    for a in model.accesses:
        key = (id(a.statement.scope), a.memref_name)
        groups.setdefault(key, {}).setdefault(a.statement.position[0], []).append(a)
    return [
        [nests[position] for position in sorted(nests)]
        for nests in groups.values()
        if include_rar or any(a.is_write for nest in nests.values() for a in nest)
    ]


def _same_nest(a: Access, b: Access) -> bool:
    return a.statement.scope is b.statement.scope and (
        a.statement.position[0] == b.statement.position[0]
    )


def _pair_count(accesses: list[Access], sinks: list[Access], include_rar: bool) -> int:
    """Ordered pairs (one of ``accesses``, one of ``sinks``) of which at least one writes
    (any, with ``include_rar``)."""
    writes = sum(a.is_write for a in accesses)
    sink_writes = sum(a.is_write for a in sinks)
    if include_rar:
        return len(accesses) * len(sinks)
    return writes * len(sinks) + (len(accesses) - writes) * sink_writes


def _union_set(ctx: isl.Context, sets: Iterable[isl.Set]) -> isl.UnionSet:
    result = isl.UnionSet.empty(isl.Space.params_alloc(ctx, 0))
    for s in sets:
        result = result.union(isl.UnionSet.from_set(s))
    return result


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
