"""The statements of a function as schedules see them: op groups with their instances,
accesses and dependences, named as the source names them.

Which ops make one statement (the rule :class:`Program` applies to a function's body):

* Loops without results (``affine.for``, ``affine.parallel``) and ``affine.if`` without
  results are *structure*: their bounds and conditions make the iteration domains (an
  ``affine.if`` is a constraint on the instances of the statements inside it, its
  ``else`` block the negation), and the ops of their blocks are grouped in turn.
* An op is *free* when it can be recomputed wherever it is needed: a pure op without
  regions (constants, ``arith``, ``math``, ``affine.apply``/``min``/``max``), ``memref.dim``
  or a view, whose operands are free (function arguments, induction variables, other free
  values). The free ops of the function's top level, and its ``memref.alloc``/``alloca``
  with free operands, stay before the generated loops (the *prologue*); its
  ``memref.dealloc`` after them (the *epilogue*). A free op inside loops is cloned into
  every statement that uses it.
* The other ops of a block between two structure ops form a run, cut at every point that
  no value crosses (no result of an op before the cut is used after it); each piece is one
  statement, so the textual order of the ops inside a statement is always kept. A loop with
  ``iter_args``, an ``affine.if`` with results or any other op with regions is an op of a
  run: it moves as a unit, and its accesses are all those inside it.
* Refused (:class:`ScheduleError`, with the reason): a value of a statement used by another
  statement, by structure (a loop bound) or by the terminator; a function body of several
  blocks; a loop of step 0 (it never ends); an iteration domain that is not affine.

Statements are numbered ``S0, S1, ...`` in textual order. A statement has one dimension per
IV of the loops around it, named after the IV (``%i`` is ``i``); parameters are named after
the SSA values they stand for (``%N`` is ``N``); loops are named by their IV as written
(``%i``, or ``%i@12`` -- the line -- when two loops of the function share the name).
Dependences come from :class:`poly.flow.FlowAnalysis` (memory-based, or value-based with
kills) between the accesses, as relations between statement instances; an op whose effects
the model cannot see depends on every other statement instance in both directions.
"""

from __future__ import annotations

import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import islpy as isl

from affine.dialects.affine_dialect import is_valid_symbol
from affine.ir.core import Block, Operation, Value
from affine.ir.diagnostics import DiagnosticError, Location
from affine.ir.registry import PURE, TERMINATOR, lookup
from affine.ops import ForOp, ParallelOp
from poly.context import coalesced, isl_context
from poly.deps import DEFAULT_MAX_OPERATIONS, AnalysisWarning
from poly.flow import Edge, FlowAnalysis
from poly.legality import MODELLED_ACCESSES, has_unseen_effects
from poly.model import VIEW_OPS, Access, Model, ModelError, build_model, instances_of
from poly.model import Statement as ModelStatement
from poly.space import IslObject, model_tuple_name, rename_params, source_identifiers

_RECOMPUTABLE = ("memref.dim", "memref.extract_strided_metadata", *VIEW_OPS)
_TOP_LEVEL_SETUP = ("memref.alloc", "memref.alloca")
EFFECTS = "effects"  # the kind of a dependence on an op the model cannot see into


class ScheduleError(DiagnosticError):
    """A schedule that cannot be built, read, checked or applied; says why (and where)."""


def source_text(op: Operation) -> str:
    """The op as written: its source line without the trailing type (its name if unknown)."""
    loc = op.loc
    if not isinstance(loc, Location):
        return op.name
    line = loc.source.line_text(loc.offset)[loc.column - 1 :].strip()
    if op.regions:
        return line.removesuffix("{").strip()
    head, _, _ = line.rpartition(" : ")
    return head or line


def where(op: Operation) -> str:
    """``file:line:col`` of an op, or its name when it has no location."""
    return str(op.loc) if op.loc is not None else op.name


@dataclass(eq=False)
class Statement:
    """One statement ``S<n>``: an op group run as a unit at each point of ``domain``."""

    name: str
    number: int
    ops: tuple[Operation, ...]  # textual order
    recompute: tuple[Operation, ...]  # free ops of enclosing blocks it uses, textual order
    loops: tuple[Operation, ...]  # enclosing affine.for / affine.parallel, outermost first
    ivs: tuple[Value, ...]  # one per dimension
    loop_names: tuple[str, ...]  # the loop name of each dimension (``%i``)
    dims: tuple[str, ...]  # ISL dimension names
    domain: isl.Set
    accesses: list[Access] = field(default_factory=list)
    unseen: tuple[Operation, ...] = ()  # ops whose effects the dependence model cannot see

    @property
    def space(self) -> isl.Space:
        return self.domain.get_space()

    @property
    def depth(self) -> int:
        return len(self.dims)

    def instance(self, values: Sequence[int]) -> str:
        """``S0[t = 0, i = 2, j = 1]``: an instance with the source's loop names."""
        inner = ", ".join(f"{n} = {v}" for n, v in zip(self.dims, values))
        return f"{self.name}[{inner}]"

    def describe(self) -> str:
        """``S0[t, i, j] at k.mlir:8-22 in %t, %i, %j: 9 affine.load, ...; reads %A;
        writes %A`` -- what the statement is, in the source's names."""
        counts: dict[str, int] = {}
        for op in self.ops:
            counts[op.name] = counts.get(op.name, 0) + 1
        ops = ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items())
        text = f"{self.name}[{', '.join(self.dims)}]"
        first, last = self.ops[0].loc, self.ops[-1].loc
        if isinstance(first, Location) and isinstance(last, Location):
            lines = str(first.line) if first.line == last.line else f"{first.line}-{last.line}"
            text += f" at {first.source.name}:{lines}"
        if self.loop_names:
            text += f" in {', '.join(self.loop_names)}"
        text += f": {ops}"
        for kind, verb in (("read", "reads"), ("write", "writes")):
            names = dict.fromkeys(
                a.memref.name or "a memref" for a in self.accesses if a.kind == kind
            )
            if names:
                text += f"; {verb} {', '.join(names)}"
        return text


@dataclass(eq=False)
class Dependence:
    """Instances of ``target`` that must run after instances of ``source``:
    ``relation = { S_source[..] -> S_target[..] }`` (an instance never depends on itself)."""

    kind: str  # RAW, WAR, WAW or EFFECTS
    source: Statement
    target: Statement
    relation: isl.Map
    exact: bool
    source_op: Operation
    target_op: Operation
    reason: str = ""  # why it is not exact

    def describe(self) -> str:
        """``RAW dependence from S0 (affine.store %v, %A[%i, %j] at k.mlir:22:9) to S0 (...)``."""
        if self.kind == EFFECTS:
            return (
                f"order of {self.source.name} ({source_text(self.source_op)} at "
                f"{where(self.source_op)}) before {self.target.name} "
                f"({source_text(self.target_op)} at {where(self.target_op)})"
            )
        return (
            f"{self.kind} dependence from {self.source.name} ({source_text(self.source_op)} at "
            f"{where(self.source_op)}) to {self.target.name} ({source_text(self.target_op)} at "
            f"{where(self.target_op)})"
        )


class Program:
    """The statements of one function (see the module docstring), their parameters, the
    ops kept around the generated loops, and (computed on demand) the dependences."""

    def __init__(self, function: Operation) -> None:
        self.function = function
        if not function.regions or not function.regions[0].blocks:
            raise ScheduleError("a function without a body has no schedule", function.loc)
        if len(function.regions[0].blocks) != 1:
            raise ScheduleError(
                "a function body of several blocks cannot be scheduled", function.loc
            )
        self.model: Model = build_model(function)
        self.loop_display: dict[tuple[int, int], str] = _loop_names(function)
        grouping = _Grouping(function)
        self.prologue: tuple[Operation, ...] = tuple(grouping.prologue)
        self.epilogue: tuple[Operation, ...] = tuple(grouping.epilogue)
        self.terminator: Operation | None = grouping.terminator
        model_statements = []
        for piece in grouping.pieces:
            try:
                model_statements.append(instances_of(self.model, piece.ops[0]))
            except ModelError as e:
                raise ScheduleError(str(e), piece.ops[0].loc) from e
        self._model_statements = model_statements
        self.params: dict[str, Value] = self._name_params()
        self.symbol_names: dict[str, Value] = {
            v.name: v
            for v in [*self.function.regions[0].blocks[0].arguments]
            + [r for op in self.prologue for r in op.results]
            if v.name is not None and is_valid_symbol(v)
        }
        self.statements: tuple[Statement, ...] = tuple(
            self._statement(n, piece, model_statement)
            for n, (piece, model_statement) in enumerate(zip(grouping.pieces, model_statements))
        )
        # the parameters that stand for IR values (a layout symbol no value binds is not
        # one: no iteration domain uses it)
        everything = isl.Space.create_from_names(isl_context(), set=[], params=list(self.params))
        for s in self.statements:
            s.domain = s.domain.align_params(everything.params())
        self._check_params()
        self._owner = {op: s for s in self.statements for top in s.ops for op in top.walk()}
        body = function.regions[0]
        for access in self.model.accesses:
            owner = self._owner.get(access.op)
            if owner is not None and access.statement.scope.region is body:
                owner.accesses.append(access)
        self.by_name = {s.name: s for s in self.statements}
        self._dependences: dict[tuple[bool, int], tuple[list[Dependence], list[str]]] = {}

    # -- names -----------------------------------------------------------------------------
    def _name_params(self) -> dict[str, Value]:
        """Rename the model's parameters (``p<n>``) after their SSA values; returns the value
        of each parameter that stands for an IR value."""
        self._param_renaming: dict[str, str] = {}
        result: dict[str, Value] = {}
        scope = self.model.scopes.get(self.function.regions[0])
        if scope is not None:
            keys = list(scope.param_names)
            old = [scope.param_names[k] for k in keys]
            new = source_identifiers([k.name if isinstance(k, Value) else None for k in keys], old)
            for key, before, after in zip(keys, old, new):
                self._param_renaming[before] = after
                if isinstance(key, Value):
                    result[after] = key
        return result

    def _check_params(self) -> None:
        """Parameters of iteration domains must be values of the top level (the generated
        loops are built there)."""
        available: set[Value] = set(self.function.regions[0].blocks[0].arguments)
        available.update(r for op in self.prologue for r in op.results)
        for name, value in self.params.items():
            if value in available:
                continue
            for s in self.statements:
                k = s.domain.find_dim_by_name(isl.dim_type.param, name)
                if k >= 0 and s.domain.involves_dims(isl.dim_type.param, k, 1):
                    definer = value.owner_op
                    raise ScheduleError(
                        f"{value.name or 'a value'} bounds the loops of {s.name} as a symbol "
                        "but is computed inside a loop; schedules need such values at the "
                        "function's top level",
                        definer.loc if definer is not None else self.function.loc,
                    )

    def rename(self, obj: IslObject) -> IslObject:
        """An ISL object of the model with its parameters named as the program names them."""
        return rename_params(obj, self._param_renaming)

    def _statement(self, number: int, piece: _Piece, model_statement: ModelStatement) -> Statement:
        if not model_statement.exact:
            raise ScheduleError(
                "the instances of this op are not an affine set ("
                + "; ".join(model_statement.reasons)
                + "), so it cannot be rescheduled",
                piece.ops[0].loc,
            )
        loops = tuple(model_statement.loops)
        ivs = tuple(
            iv for loop in loops for iv in loop.regions[0].blocks[0].arguments[: _ivs(loop)]
        )
        loop_names = tuple(
            self.loop_display[(id(loop), k)] for loop in loops for k in range(_ivs(loop))
        )
        dims = tuple(
            source_identifiers(
                [iv.name for iv in ivs], [f"i{k}" for k in range(len(ivs))], list(self.params)
            )
        )
        name = model_tuple_name("S", number)
        domain = self.rename(model_statement.domain).set_tuple_name(name)
        for k, dim in enumerate(dims):
            domain = domain.set_dim_name(isl.dim_type.set, k, dim)
        unseen = tuple(op for top in piece.ops for op in top.walk() if has_unseen_effects(op))
        return Statement(
            name,
            number,
            tuple(piece.ops),
            tuple(piece.recompute),
            loops,
            ivs,
            loop_names,
            dims,
            domain,
            unseen=unseen,
        )

    def statement_of(self, op: Operation) -> Statement | None:
        """The statement an op (or an op nested in it) belongs to."""
        return self._owner.get(op)

    def statement(self, name: str) -> Statement:
        found = self.by_name.get(name)
        if found is None:
            known = ", ".join(self.by_name) or "none"
            raise ScheduleError(f"no statement {name} (statements: {known})", self.function.loc)
        return found

    @cached_property
    def domain(self) -> isl.UnionSet:
        result = isl.UnionSet.empty(isl.Space.params_alloc(isl_context(), 0))
        for s in self.statements:
            result = result.union(isl.UnionSet.from_set(s.domain))
        return result

    @cached_property
    def universe(self) -> isl.UnionSet:
        """Every point of every statement's space: what filters select statements from."""
        result = isl.UnionSet.empty(isl.Space.params_alloc(isl_context(), 0))
        for s in self.statements:
            result = result.union(isl.UnionSet.from_set(isl.Set.universe(s.space)))
        return result

    def to_statement(self, relation: isl.Map, side: isl.dim_type, s: Statement) -> isl.Map:
        """A relation on an access's instances (``A<k>[ivs]``) on ``side``, projected on the
        instances of its statement ``s`` (whose dims are the leading ones)."""
        extra = relation.dim(side) - s.depth
        relation = relation.project_out(side, s.depth, extra).set_tuple_name(side, s.name)
        for k, dim in enumerate(s.dims):
            relation = relation.set_dim_name(side, k, dim)
        return relation

    # -- dependences ------------------------------------------------------------------------
    def dependences(
        self, value_based: bool = False, max_operations: int = DEFAULT_MAX_OPERATIONS
    ) -> tuple[list[Dependence], list[str]]:
        """The dependences between statement instances and the analysis' warnings (what it
        could not decide, kept as inexact dependences); computed once per kind."""
        key = (value_based, max_operations)
        if key not in self._dependences:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", AnalysisWarning)
                analysis = FlowAnalysis(
                    self.model,
                    value_based=value_based,
                    memory_based=not value_based,
                    max_operations=max_operations,
                )
            edges = analysis.value if value_based else analysis.memory
            dependences = [d for e in edges if (d := self._dependence(e)) is not None]
            dependences += self._unseen_dependences()
            self._dependences[key] = (dependences, [str(w.message) for w in caught])
        return self._dependences[key]

    def _dependence(self, edge: Edge) -> Dependence | None:
        source = self._owner.get(edge.source.op)
        target = self._owner.get(edge.target.op)
        if (
            source is None
            or target is None
            or edge.source.statement.scope.region is not (self.function.regions[0])
        ):
            return None  # an access in a nested scope: its op's effects are unseen
        if edge.relation is None:
            relation = self._before(source, target)
        else:
            relation = self.rename(edge.relation)
            relation = self.to_statement(relation, isl.dim_type.in_, source)
            relation = self.to_statement(relation, isl.dim_type.out, target)
            relation = _without_identity(relation, source is target)
        if relation.is_empty():
            return None
        reasons = list(dict.fromkeys(edge.source.reasons + edge.target.reasons))
        if edge.unknown:
            reasons.insert(0, "the dependence analysis could not decide it")
        return Dependence(
            edge.kind,
            source,
            target,
            coalesced(relation),
            edge.exact,
            edge.source.op,
            edge.target.op,
            "; ".join(reasons),
        )

    @cached_property
    def unnamed_buffers(self) -> frozenset[Value]:
        """The buffers an op the model cannot see into reaches only by naming them (as an
        operand of itself or of an op nested in it): allocated in the function and used by
        nothing but modelled loads, stores and DMAs and ``memref.dealloc`` -- never passed
        to a call, a view, a return or any other op, so no hidden effect can reach them."""
        allocated = {
            r
            for op in self.function.walk()
            if op.name in ("memref.alloc", "memref.alloca")
            for r in op.results
        }
        for op in self.function.walk():
            if op.name not in MODELLED_ACCESSES and op.name != "memref.dealloc":
                allocated.difference_update(op.operands)
        return frozenset(allocated)

    def _unseen_dependences(self) -> list[Dependence]:
        """For an op whose effects the model cannot see: every pair of instances of its
        statement and of any other statement that may touch what it touches, in their
        original order. A statement with no unseen op whose accesses are all to
        :attr:`unnamed_buffers` the unseen ops do not name is independent of them."""
        result = []
        for s in self.statements:
            if not s.unseen:
                continue
            op = s.unseen[0]
            reason = f"{op.name} at {where(op)} may have effects the dependence analysis cannot see"
            named = {v for u in s.unseen for nested in u.walk() for v in nested.operands}
            for other in self.statements:
                if not (other.accesses or other.unseen):
                    continue
                if not other.unseen and all(
                    a.memref in self.unnamed_buffers and a.memref not in named
                    for a in other.accesses
                ):
                    continue
                other_op = other.unseen[0] if other.unseen else other.accesses[0].op
                for a, b, a_op, b_op in ((s, other, op, other_op), (other, s, other_op, op)):
                    relation = _without_identity(self._before(a, b), a is b)
                    if not relation.is_empty():
                        result.append(
                            Dependence(EFFECTS, a, b, relation, False, a_op, b_op, reason)
                        )
                    if a is b:
                        break
        return result

    @cached_property
    def original_order(self) -> isl.UnionMap:
        """The source's execution order as a 2d+1 map with walk positions as constants."""
        result = isl.UnionMap.empty(isl.Space.params_alloc(isl_context(), 0))
        width = 1 + 2 * max((s.depth for s in self.statements), default=0)
        for s, model_statement in zip(self.statements, self._model_statements):
            m = self.rename(model_statement.schedule_map(width, s.name))
            result = result.union(isl.UnionMap.from_map(m.intersect_domain(s.domain)))
        return result

    @cached_property
    def _earlier(self) -> isl.UnionMap:
        order = self.original_order
        return order.lex_lt_union_map(order)

    def _before(self, a: Statement, b: Statement) -> isl.Map:
        """Pairs of instances of ``a`` and ``b``, ``a``'s first in the source."""
        return self._earlier.extract_map(a.space.map_from_domain_and_range(b.space))


def _without_identity(relation: isl.Map, same: bool) -> isl.Map:
    if not same:
        return relation
    return relation.subtract(isl.Map.identity(relation.get_space()))


def _ivs(loop: Operation) -> int:
    return len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1


def _loop_names(function: Operation) -> dict[tuple[int, int], str]:
    """A display name for each loop IV of the function: ``%i`` as written, ``%i@LINE`` (then
    ``%i@LINE:COL``) where names repeat, ``%iv<k>`` for an IV without a name."""
    ivs: list[tuple[Operation, int, str]] = []
    for op in function.walk():
        if op.name in ("affine.for", "affine.parallel"):
            args = op.regions[0].blocks[0].arguments
            ivs.extend((op, k, args[k].name or f"%iv{len(ivs) + k}") for k in range(_ivs(op)))
    names = [name for _, _, name in ivs]
    for detail in (lambda loc: f"@{loc.line}", lambda loc: f"@{loc.line}:{loc.column}"):
        counts = Counter(names)
        names = [
            base + detail(op.loc) if counts[name] > 1 and isinstance(op.loc, Location) else name
            for (op, _, base), name in zip(ivs, names)
        ]
    counts = Counter(names)
    seen: Counter[str] = Counter()
    unique = []
    for name in names:
        seen[name] += 1
        unique.append(name if counts[name] == 1 else f"{name}#{seen[name]}")
    return {(id(op), k): name for (op, k, _), name in zip(ivs, unique)}


# -- grouping ops into statements ---------------------------------------------------------------


@dataclass
class _Piece:
    ops: list[Operation]
    recompute: list[Operation] = field(default_factory=list)


def _is_structure(op: Operation) -> bool:
    return op.name in ("affine.for", "affine.parallel", "affine.if") and not op.results


def _is_terminator(op: Operation) -> bool:
    d = lookup(op.name)
    return d is not None and d.has(TERMINATOR)


def _recomputable(op: Operation) -> bool:
    if op.regions:
        return False
    if op.name in _RECOMPUTABLE:
        return True
    d = lookup(op.name)
    return d is not None and d.has(PURE)


class _Grouping:
    """The prologue, epilogue and statement pieces of a function body (module docstring)."""

    def __init__(self, function: Operation) -> None:
        self.function = function
        self.body = function.regions[0].blocks[0]
        self.free: set[Value] = set(self.body.arguments)
        self.local_free: dict[Value, Operation] = {}  # free values defined inside loops
        self.users: dict[Value, list[Operation]] = defaultdict(list)
        self.order: dict[Operation, int] = {}
        for k, op in enumerate(function.walk()):
            self.order[op] = k
            for v in op.operands:
                self.users[v].append(op)
        self.prologue: list[Operation] = []
        self.epilogue: list[Operation] = []
        self.pieces: list[_Piece] = []
        self.terminator: Operation | None = None
        self.block(self.body, top=True)

    def block(self, block: Block, top: bool) -> None:
        """Group the ops of ``block``: free ops apart, the other ops and the loops and
        ``affine.if`` cut where no value crosses; a piece that is one loop or ``affine.if``
        is structure (its blocks are grouped in turn), any other piece a statement."""
        ops = list(block.operations)
        terminator = ops.pop() if ops and _is_terminator(ops[-1]) else None
        items: list[Operation] = []
        for op in ops:
            operands_free = all(v in self.free for v in op.operands)
            if not _is_structure(op) and _recomputable(op) and operands_free:
                self.free.update(op.results)
                if top:
                    self.prologue.append(op)
                else:
                    self.local_free.update((r, op) for r in op.results)
            elif top and op.name in _TOP_LEVEL_SETUP and operands_free:
                self.free.update(op.results)
                self.prologue.append(op)
            elif top and op.name == "memref.dealloc" and operands_free:
                self.epilogue.append(op)
            else:
                items.append(op)
        for piece in self.cut(items, block):
            if len(piece) == 1 and _is_structure(piece[0]):
                self.structure(piece[0])
            else:
                self.pieces.append(self.piece(piece))
        if terminator is not None:
            for v in terminator.operands:
                if v not in self.free:
                    raise _crossing(v, terminator)
            if top:
                self.terminator = terminator

    def structure(self, op: Operation) -> None:
        if (op.name == "affine.for" and ForOp(op).step == 0) or (
            op.name == "affine.parallel" and 0 in ParallelOp(op).steps
        ):
            raise ScheduleError("a loop of step 0 never ends and cannot be rescheduled", op.loc)
        for arg in (a for region in op.regions for b in region.blocks for a in b.arguments):
            self.free.add(arg)
        for region in op.regions:
            for block in region.blocks:
                self.block(block, top=False)

    def cut(self, items: list[Operation], block: Block) -> list[list[Operation]]:
        """``items`` cut at every point no value crosses (no result of an op before it,
        or of an op nested in one, is used at or after it)."""
        index = {op: k for k, op in enumerate(items)}
        last_use = list(range(len(items)))
        for k, op in enumerate(items):
            for nested in op.walk():
                for result in nested.results:
                    for user in self.users[result]:
                        holder = _in_block(user, block)
                        if holder is None or holder not in index:
                            raise _crossing(result, user)
                        at = index[holder]
                        last_use[k] = max(last_use[k], at)
        pieces: list[list[Operation]] = []
        start, end = 0, -1
        for k in range(len(items)):
            if k > end and k > start:
                pieces.append(items[start:k])
                start = k
            end = max(end, last_use[k])
        if items:
            pieces.append(items[start:])
        return pieces

    def piece(self, ops: list[Operation]) -> _Piece:
        """A statement of ``ops``, with the free ops of enclosing blocks it uses."""
        needed: dict[Operation, None] = {}
        pending = [v for top in ops for op in top.walk() for v in op.operands]
        while pending:
            v = pending.pop()
            definer = self.local_free.get(v)
            if definer is not None and definer not in needed:
                needed[definer] = None
                pending.extend(definer.operands)
        return _Piece(ops, sorted(needed, key=self.order.__getitem__))


def _in_block(op: Operation, block: Block) -> Operation | None:
    """The op of ``block`` that is ``op`` or holds it (None when ``op`` is not in it)."""
    current: Operation | None = op
    while current is not None and current.parent is not block:
        current = current.parent_op
    return current


def _crossing(value: Value, user: Operation) -> ScheduleError:
    definer = value.owner_op
    what = value.name or "a value"
    source = f" defined at {where(definer)}" if definer is not None else ""
    return ScheduleError(
        f"{what}{source} is used here, outside the statement that computes it: values "
        "that cross statements cannot be rescheduled",
        user.loc,
    )
