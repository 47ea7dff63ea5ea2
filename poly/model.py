"""The polyhedral model of affine code: statements, iteration domains, accesses, schedule.

Every op that touches memory inside an affine scope (a function body) is a *statement*
``S<n>`` whose instances are the points of its iteration domain: one integer dimension per
enclosing ``affine.for`` IV and per ``affine.parallel`` IV (outermost first), constrained by
the loop bounds (``max``/``min`` maps, steps as strides), by enclosing ``affine.if``
conditions (their negation in ``else`` blocks), with symbols as ISL parameters.

A statement's *accesses* are relations from its instances to the elements of a memref,
``{ S3[i, j] -> M1[e0, e1] }``. Subscripts are composed with the ``affine.apply`` ops (and
index ``arith`` ops) that feed them and with the memref's layout map, so two accesses meet
exactly when they touch the same element of the same buffer. What cannot be modelled
exactly is over-approximated soundly and flagged (``exact=False`` with a reason):

* a bound or condition whose operands are not affine is dropped (more instances);
* an op inside a region op other than the affine ones (``scf.if``, ``scf.for``) has the
  instances of the affine loops around it, each of which may run it or not: its writes
  are may-writes, which kill no earlier value;
* a semi-affine subscript (``d0 * s0``, ``floordiv s0``) whose symbol is not a constant, or
  a subscript that is not affine at all, leaves that element coordinate unconstrained;
* ``memref.load/store`` with affine indices are exact accesses; with other indices, and
  calls or unknown ops that take a memref, they may read and write the whole memref;
* views (``memref.subview``, ``cast``, ``reinterpret_cast``, ...) are traced to the buffer
  they alias; an access through a view whose layout has static strides and offset touches
  the elements at those positions of the buffer, other view accesses all of it;
* a buffer allocated inside loops is a new buffer in each of their iterations (its
  elements carry those loops' IVs);
* DMA ops (``affine.`` and ``memref.dma_start``) read ``count`` consecutive elements (row-major order of the logical index space)
  of the source, write as many of the destination, and write their tag; ``dma_wait``
  reads the tag.

As in MLIR, distinct memref values (function arguments, allocations) are assumed not to
alias. ``Model.schedule`` is the original execution order in 2d+1 form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine.dialects.affine_dialect import (
    DmaStartOp,
    ForOp,
    IfOp,
    ParallelOp,
    affine_scope,
    index_op_maps,
    is_valid_symbol,
)
from affine.dialects.memref import MemRefDmaStart
from affine.dialects.vector import in_bounds, transfer_dims, transfer_parts, transfer_vector_type
from affine.errors import PolyError
from affine.ir.core import BlockArgument, Module, Operation, OpResult, Region, Value
from affine.ir.labels import value_label
from affine.ir.registry import AFFINE_SCOPE, lookup
from affine.ir.strides import strides_and_offset
from affine.ir.types import (
    DYNAMIC,
    IndexType,
    IntegerType,
    MemRefType,
    StridedLayout,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, AffineExprError, dim, symbol
from affine.math.expr import constant as const_expr
from affine.math.integer_set import IntegerSet
from affine.math.simplify import simplify_map
from poly.context import coalesced, isl_context
from poly.convert import NotPresburgerError, expr_to_pw_aff, map_to_isl
from poly.space import (
    half_line_map,
    iv_name,
    memref_space,
    model_tuple_name,
    param_id,
    prefix_map,
    row_major_linearization,
    statement_space,
    strided_position_map,
    value_param_name,
    window_map,
)

READ = "read"
WRITE = "write"

LOOP_OPS = ("affine.for", "affine.parallel")
VIEW_OPS = (
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.transpose",
    "memref.memory_space_cast",
    "memref.assume_alignment",
    "memref.reshape",
    "memref.realloc",
)
# Views whose result has its operand's strides and offset (only the type may forget them).
LAYOUT_PRESERVING = ("memref.cast", "memref.memory_space_cast", "memref.assume_alignment")
NO_MEMORY_ACCESS = (
    "memref.dim",
    "memref.alloc",
    "memref.alloca",
    "memref.dealloc",
    "memref.extract_strided_metadata",
    "memref.extract_aligned_pointer_as_index",
    "func.return",
    "affine.yield",
    *VIEW_OPS,
)


class ModelError(PolyError):
    """Something the model cannot represent at all (the analysis answers "unknown")."""


# -- affine values ---------------------------------------------------------------------------------


class Scope:
    """One affine scope (a function body) and the ISL names of its values.

    This is where IR values meet ISL: an IV is the dimension named by
    :func:`poly.space.iv_name` (loops numbered as the model meets them), a value used as a
    symbol is the parameter :func:`poly.space.value_param_name`; every object of the scope
    aligns by these names.
    """

    def __init__(self, region: Region, model: Model) -> None:
        self.region = region
        self.model = model
        self.param_names: dict[object, str] = {}
        self.loop_ids: dict[Operation, int] = {}

    def iv_name(self, iv: Value) -> str:
        assert isinstance(iv, BlockArgument)
        loop = iv.owner.parent_op
        assert loop is not None
        if loop not in self.loop_ids:
            self.loop_ids[loop] = len(self.loop_ids)
        return iv_name(self.loop_ids[loop], iv.index)

    def param_name(self, key: object) -> str:
        """The parameter for a symbol value (or for any other fixed unknown ``key``)."""
        if key not in self.param_names:
            self.param_names[key] = value_param_name(len(self.param_names))
        return self.param_names[key]

    def constant(self, value: Value) -> int | None:
        """The value of an index constant, or of a value the model was told to fix."""
        bound = self.model.bindings.get(value)
        return bound if bound is not None else _constant_value(value)

    def pw_aff(self, value: Value, on: StatementSpace, depth: int = 0) -> isl.PwAff | None:
        """An index value as a function of the statement's IVs and the parameters, or None
        when it is not affine (semi-affine with a non-constant symbol, a loaded value...)."""
        if depth > 64:
            return None
        if _is_loop_iv(value):
            name = self.iv_name(value)
            return on.var(name) if name in on.iv_names else None
        constant = self.constant(value)
        if constant is not None:
            return on.const(constant)
        if isinstance(value, OpResult):
            op = value.owner
            if op.name == "affine.apply":
                m: AffineMap = op.get_attr("map").value  # type: ignore[union-attr]  # the op's definition makes this attribute present
                return self.map_result(m, m.results[0], op.operands, on, depth + 1)
            if op.name in ("arith.addi", "arith.subi", "arith.muli") and isinstance(
                value.type, IndexType
            ):
                lhs = self.pw_aff(op.operands[0], on, depth + 1)
                rhs = self.pw_aff(op.operands[1], on, depth + 1)
                if lhs is not None and rhs is not None:
                    if op.name == "arith.addi":
                        return lhs.add(rhs)
                    if op.name == "arith.subi":
                        return lhs.sub(rhs)
                    if lhs.is_cst() or rhs.is_cst():
                        return lhs.mul(rhs)
            if op.name == "arith.index_cast" and isinstance(op.operands[0].type, IndexType):
                return self.pw_aff(op.operands[0], on, depth + 1)
            if op.name in ("affine.delinearize_index", "affine.linearize_index"):
                maps, operands = index_op_maps(op)
                m = maps[value.index]
                return self.map_result(m, m.results[0], operands, on, depth + 1)
        if isinstance(value.type, IndexType) and is_valid_symbol(value, self.region):
            return on.param(self.param_name(value))
        return None

    def map_result(
        self,
        m: AffineMap,
        e: AffineExpr,
        operands: Sequence[Value],
        on: StatementSpace,
        depth: int = 0,
    ) -> isl.PwAff | None:
        """One result of ``m`` applied to ``operands``; operands with known constant values
        are substituted first, so semi-affine maps over constants become affine."""
        constants = [self.constant(v) for v in operands]
        dims = [
            dim(k) if c is None else const_expr(c) for k, c in enumerate(constants[: m.num_dims])
        ]
        syms = [
            symbol(k) if c is None else const_expr(c) for k, c in enumerate(constants[m.num_dims :])
        ]
        try:
            e = e.replace(dims, syms)
            inputs = [
                None if c is not None else self.pw_aff(v, on, depth)
                for v, c in zip(operands, constants)
            ]
            return expr_to_pw_aff(e, on.space, inputs, m.num_dims)
        except (NotPresburgerError, AffineExprError, ZeroDivisionError):
            return None


class StatementSpace:
    """The instance space ``S<n>[ivs]`` of one statement, for building functions on it."""

    def __init__(self, name: str, iv_names: list[str]) -> None:
        self.name = name
        self.iv_names = iv_names
        self.space = statement_space(name, iv_names)
        self.universe = isl.Set.universe(self.space)
        self.local = isl.LocalSpace.from_space(self.space)

    def var(self, iv: str) -> isl.PwAff:
        return isl.PwAff.var_on_domain(self.local, isl.dim_type.set, self.iv_names.index(iv))

    def const(self, value: int) -> isl.PwAff:
        return isl.PwAff.val_on_domain(self.universe, isl.Val.int_from_si(isl_context(), value))

    def param(self, name: str) -> isl.PwAff:
        return isl.PwAff.param_on_domain_id(self.universe, param_id(name))


def _is_loop_iv(value: Value) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    op = value.owner.parent_op
    if op is None or value.owner is not op.regions[0].blocks[0]:
        return False
    return (op.name == "affine.for" and value.index == 0) or op.name == "affine.parallel"


def _constant_value(value: Value) -> int | None:
    if isinstance(value, OpResult) and value.owner.name == "arith.constant":
        attr = value.owner.get_attr("value")
        v = getattr(attr, "value", None)
        if isinstance(v, int) and isinstance(value.type, (IndexType, IntegerType)):
            return v
    return None


# -- statements and accesses -------------------------------------------------------------------------


@dataclass
class Statement:
    """An op that touches memory, with the instances it runs: ``S<n>[ivs] : domain``."""

    name: str
    op: Operation
    scope: Scope
    loops: list[Operation]  # enclosing affine.for / affine.parallel in the scope, outermost first
    iv_names: list[str]
    domain: isl.Set
    exact: bool
    reasons: list[str]
    position: tuple[int, ...]  # 2d+1 schedule constants (textual positions at each depth)
    space: StatementSpace
    # inside an op whose region may run no time at an instance (``scf.if``, ``scf.for``):
    # the domain holds the instances that may run, so its writes are may-writes
    conditional: bool = False

    @property
    def depth(self) -> int:
        return len(self.iv_names)

    def schedule_vector(self) -> list[int | str]:
        """``[b0, ivs of loop 1, b1, ivs of loop 2, ..., bk]``: textual positions (ints)
        interleaved with IV names."""
        vector: list[int | str] = []
        ivs = iter(self.iv_names)
        for position, loop in zip(self.position, self.loops):
            vector.append(position)
            vector.extend(next(ivs) for _ in range(_num_ivs(loop)))
        vector.append(self.position[-1])
        return vector

    def schedule_map(
        self,
        width: int,
        name: str | None = None,
        tail: tuple[int, ...] = (),
        vector: Sequence[int | str] | None = None,
    ) -> isl.Map:
        """The schedule (``vector``, by default :meth:`schedule_vector`) padded with zeros to
        ``width`` dims (then ``tail``), on the domain tuple ``name`` (the statement's own by
        default)."""
        on = self.space
        vector = list(self.schedule_vector() if vector is None else vector)
        vector += [0] * (width - len(vector)) + list(tail)
        pieces = isl.PwAffList.alloc(isl_context(), len(vector))
        for entry in vector:
            pieces = pieces.add(on.var(entry) if isinstance(entry, str) else on.const(entry))
        target = on.space.map_from_domain_and_range(
            isl.Space.set_alloc(isl_context(), 0, len(vector))
        )
        schedule = isl.Map.from_multi_pw_aff(isl.MultiPwAff.from_pw_aff_list(target, pieces))
        schedule = schedule.intersect_domain(self.domain)
        return schedule if name is None else schedule.set_tuple_name(isl.dim_type.in_, name)


@dataclass
class Access:
    """One way a statement touches a memref: ``{ S[ivs] -> M[element] }``.

    ``number`` is the access's number as ``-test-memref-dependence-check`` counts them
    (``affine.load``/``affine.store`` in module walk order); None for other accesses.
    ``must`` is False for may-accesses (the whole memref, an approximated element set, or
    an access of a statement that may not run: under an ``scf.if`` or ``scf.for``).
    """

    statement: Statement
    kind: str  # READ or WRITE
    memref: Value  # the buffer (views traced back to what they alias)
    memref_name: str
    relation: isl.Map
    must: bool
    exact: bool
    reasons: list[str]
    number: int | None = None

    @property
    def op(self) -> Operation:
        return self.statement.op

    @property
    def is_write(self) -> bool:
        return self.kind == WRITE

    @property
    def memref_label(self) -> str:
        """The memref as the source names it (``%A``); :attr:`memref_name` is its ISL tuple."""
        return value_label(self.memref)

    def __repr__(self) -> str:
        tag = f"#{self.number} " if self.number is not None else ""
        return f"<Access {tag}{self.kind} {self.memref_label} by {self.op.name} at {self.op.loc}>"


@dataclass
class Model:
    """Statements and accesses of every affine scope of a module (walk order)."""

    ctx: isl.Context
    bindings: Mapping[Value, int] = field(default_factory=dict)  # values fixed to constants
    statements: list[Statement] = field(default_factory=list)
    accesses: list[Access] = field(default_factory=list)
    scopes: dict[Region, Scope] = field(default_factory=dict)
    memref_names: dict[Value, str] = field(default_factory=dict)
    cache: dict[object, object] = field(default_factory=dict)  # ISL objects analyses reuse

    @property
    def numbered(self) -> list[Access]:
        """The ``affine.load``/``affine.store`` accesses in the order mlir-opt numbers them."""
        return [a for a in self.accesses if a.number is not None]

    def accesses_of(self, op: Operation) -> list[Access]:
        return [a for a in self.accesses if a.op is op]

    def statement_of(self, op: Operation) -> Statement | None:
        return next((s for s in self.statements if s.op is op), None)

    def schedule(self, scope: Scope | None = None) -> isl.UnionMap:
        """The original execution order as a 2d+1 schedule ``{ S[i..] -> [b0, i0, b1, ...] }``
        (an ``affine.parallel`` contributes all its IVs after one position)."""
        stmts = [s for s in self.statements if scope is None or s.scope is scope]
        width = max((len(s.schedule_vector()) for s in stmts), default=1)
        result = isl.UnionMap.empty(isl.Space.params_alloc(self.ctx, 0))
        for s in stmts:
            result = result.union(isl.UnionMap.from_map(s.schedule_map(width)))
        return result

    def union_accesses(self, kind: str, must_only: bool = False) -> isl.UnionMap:
        result = isl.UnionMap.empty(isl.Space.params_alloc(self.ctx, 0))
        for a in self.accesses:
            if a.kind == kind and (a.must or not must_only):
                result = result.union(isl.UnionMap.from_map(a.relation))
        return result

    def domains(self) -> isl.UnionSet:
        result = isl.UnionSet.empty(isl.Space.params_alloc(self.ctx, 0))
        for s in self.statements:
            result = result.union(isl.UnionSet.from_set(s.domain))
        return result


def build_model(root: Module | Operation, bindings: Mapping[Value, int] | None = None) -> Model:
    """The polyhedral model of every statement under ``root`` (a module or one function).

    ``bindings`` fixes index values (function arguments, say) to constants: the model of
    that instance of the code, with semi-affine subscripts over those values made affine.
    """
    op = root.operation if isinstance(root, Module) else root
    model = Model(isl_context(), dict(bindings or {}))
    order = {inner: k for k, inner in enumerate(op.walk())}
    builder = _Builder(model, order)
    number = 0
    for inner in order:
        statement_accesses = builder.visit(inner)
        if inner.name in ("affine.load", "affine.store"):
            for access in statement_accesses:
                access.number = number
            number += 1
    return model


class _Builder:
    def __init__(self, model: Model, order: dict[Operation, int]) -> None:
        self.model = model
        self.order = order

    def scope_of(self, op: Operation) -> Scope | None:
        region = affine_scope(op)
        if region is None:
            return None
        if region not in self.model.scopes:
            self.model.scopes[region] = Scope(region, self.model)
        return self.model.scopes[region]

    def visit(self, op: Operation) -> list[Access]:
        """Model ``op`` if it touches memory; returns its accesses."""
        memref_operands = [v for v in op.operands if isinstance(v.type, MemRefType)]
        if not memref_operands or op.name in NO_MEMORY_ACCESS:
            return []
        scope = self.scope_of(op)
        if scope is None:
            return []
        statement = self.statement(op, scope)
        accesses = list(self.accesses(statement, scope))
        self.model.statements.append(statement)
        self.model.accesses.extend(accesses)
        return accesses

    # domains ---------------------------------------------------------------------------------------
    def statement(self, op: Operation, scope: Scope) -> Statement:
        chain = _ancestors_in_scope(op, scope.region)
        loops = [a for a in chain if a.name in LOOP_OPS]
        iv_names = [
            scope.iv_name(iv)
            for loop in loops
            for iv in loop.regions[0].blocks[0].arguments[: _num_ivs(loop)]
        ]
        name = model_tuple_name("S", len(self.model.statements))
        on = StatementSpace(name, iv_names)
        reasons: list[str] = []
        domain = on.universe
        for ancestor, child in zip(chain, [*chain[1:], op]):
            if ancestor.name == "affine.for":
                domain = domain.intersect(self.for_domain(ancestor, scope, on, reasons))
            elif ancestor.name == "affine.parallel":
                domain = domain.intersect(self.parallel_domain(ancestor, scope, on, reasons))
            elif ancestor.name == "affine.if":
                domain = self.if_restrict(ancestor, child, domain, scope, on, reasons)
        position = _positions(op, chain, self.order)
        conditional = _conditional(op, scope.region)
        return Statement(
            name,
            op,
            scope,
            loops,
            iv_names,
            coalesced(domain),
            not reasons,
            reasons,
            position,
            on,
            conditional,
        )

    def bound_terms(
        self,
        m: AffineMap,
        operands: Sequence[Value],
        scope: Scope,
        on: StatementSpace,
        reasons: list[str],
        what: str,
    ) -> list[isl.PwAff]:
        terms = []
        for e in m.results:
            term = scope.map_result(m, e, operands, on)
            if term is None:
                reasons.append(f"non-affine {what} {e} dropped")
            else:
                terms.append(term)
        return terms

    def iv_range(
        self,
        iv: isl.PwAff,
        lbs: list[isl.PwAff],
        ubs: list[isl.PwAff],
        step: int,
        lbs_complete: bool,
        on: StatementSpace,
    ) -> isl.Set:
        """``max(lbs) <= iv < min(ubs)`` and ``iv = max(lbs) + step * k`` (``iv = max(lbs)``
        for a step of 0: such a loop repeats that iteration forever)."""
        result = on.universe
        for lb in lbs:
            result = result.intersect(iv.ge_set(lb))
        for ub in ubs:
            result = result.intersect(iv.lt_set(ub))
        if step != 1 and lbs and lbs_complete:
            # one disjunct per lower bound that can be the maximum; a step of 0 stays there
            stride = isl.Val.int_from_si(isl_context(), step)
            options = on.universe.empty(on.space)
            for k, lb in enumerate(lbs):
                if step == 0:
                    option = iv.eq_set(lb)
                else:
                    option = iv.sub(lb).mod_val(stride).zero_set()
                for j, other in enumerate(lbs):
                    if j != k:
                        option = option.intersect(lb.ge_set(other))
                options = options.union(option)
            result = result.intersect(options)
        return result

    def for_domain(
        self, op: Operation, scope: Scope, on: StatementSpace, reasons: list[str]
    ) -> isl.Set:
        loop = ForOp(op)
        lbs = self.bound_terms(
            loop.lower_bound_map, loop.lower_bound_operands, scope, on, reasons, "lower bound"
        )
        ubs = self.bound_terms(
            loop.upper_bound_map, loop.upper_bound_operands, scope, on, reasons, "upper bound"
        )
        iv = on.var(scope.iv_name(loop.induction_var))
        complete = len(lbs) == loop.lower_bound_map.num_results
        return self.iv_range(iv, lbs, ubs, loop.step, complete, on)

    def parallel_domain(
        self, op: Operation, scope: Scope, on: StatementSpace, reasons: list[str]
    ) -> isl.Set:
        par = ParallelOp(op)
        result = on.universe
        lb_pos = ub_pos = 0
        for k, iv_value in enumerate(par.induction_vars):
            lb_count, ub_count = par.lower_bounds_groups[k], par.upper_bounds_groups[k]
            lb_map = par.lower_bounds_map.sub_map(list(range(lb_pos, lb_pos + lb_count)))
            ub_map = par.upper_bounds_map.sub_map(list(range(ub_pos, ub_pos + ub_count)))
            lb_pos += lb_count
            ub_pos += ub_count
            lbs = self.bound_terms(
                lb_map, par.lower_bounds_operands, scope, on, reasons, "lower bound"
            )
            ubs = self.bound_terms(
                ub_map, par.upper_bounds_operands, scope, on, reasons, "upper bound"
            )
            iv = on.var(scope.iv_name(iv_value))
            result = result.intersect(
                self.iv_range(iv, lbs, ubs, par.steps[k], len(lbs) == lb_count, on)
            )
        return result

    def if_restrict(
        self,
        op: Operation,
        child: Operation,
        domain: isl.Set,
        scope: Scope,
        on: StatementSpace,
        reasons: list[str],
    ) -> isl.Set:
        cond = IfOp(op).condition
        as_map = _set_as_map(cond)
        condition = on.universe
        for e, is_eq in zip(cond.constraints, cond.eq_flags):
            pa = scope.map_result(as_map, e, op.operands, on)
            if pa is None:
                reasons.append(f"non-affine condition {cond} dropped")
                return domain
            condition = condition.intersect(pa.zero_set() if is_eq else pa.nonneg_set())
        in_then = child.parent is not None and child.parent.parent is op.regions[0]
        return domain.intersect(condition) if in_then else domain.subtract(condition)

    # accesses ------------------------------------------------------------------------------------
    def accesses(self, s: Statement, scope: Scope) -> Iterator[Access]:
        op = s.op
        name = op.name
        on = s.space
        if name in ("affine.load", "affine.vector_load", "affine.store", "affine.vector_store"):
            is_load = "load" in name
            memref = op.operands[0] if is_load else op.operands[1]
            m: AffineMap = op.get_attr("map").value  # type: ignore[union-attr]  # the op's definition makes this attribute present
            operands = op.operands[1:] if is_load else op.operands[2:]
            subscripts = [scope.map_result(m, e, operands, on) for e in m.results]
            kind = READ if is_load else WRITE
            yield self.element_access(s, scope, kind, memref, subscripts, _vector_extent(op))
        elif name in ("memref.load", "memref.store"):
            is_load = name == "memref.load"
            memref = op.operands[0] if is_load else op.operands[1]
            operands = op.operands[1:] if is_load else op.operands[2:]
            subscripts = [scope.pw_aff(v, on) for v in operands]
            yield self.element_access(s, scope, READ if is_load else WRITE, memref, subscripts)
        elif name in ("vector.transfer_read", "vector.transfer_write"):
            memref, indices, _, mask = transfer_parts(op)
            yield self.transfer_access(s, scope, op, memref, indices, mask)
        elif name == "affine.dma_start":
            dma = DmaStartOp(op)
            count = scope.pw_aff(dma.num_elements, on)
            for kind, memref, m, operands in (
                (READ, dma.src, dma.src_map, dma.src_indices),
                (WRITE, dma.dst, dma.dst_map, dma.dst_indices),
            ):
                start = [scope.map_result(m, e, operands, on) for e in m.results]
                yield self.range_access(s, scope, kind, memref, start, count)
            tag_m = dma.tag_map
            tag = [scope.map_result(tag_m, e, dma.tag_indices, on) for e in tag_m.results]
            yield self.element_access(s, scope, WRITE, dma.tag, tag)
        elif name == "memref.dma_start":
            mdma = MemRefDmaStart(op)
            count = scope.pw_aff(mdma.num_elements, on)
            for kind, memref, values in (
                (READ, mdma.src, mdma.src_indices),
                (WRITE, mdma.dst, mdma.dst_indices),
            ):
                start = [scope.pw_aff(v, on) for v in values]
                yield self.range_access(s, scope, kind, memref, start, count)
            tag_index = [scope.pw_aff(v, on) for v in mdma.tag_indices]
            yield self.element_access(s, scope, WRITE, mdma.tag, tag_index)
        elif name == "memref.dma_wait":
            tag_index = [scope.pw_aff(v, on) for v in op.operands[1:-1]]
            yield self.element_access(s, scope, READ, op.operands[0], tag_index)
        elif name == "affine.dma_wait":
            m = op.get_attr("tag_map").value  # type: ignore[union-attr]  # the op's definition makes this attribute present
            indices = op.operands[1 : 1 + m.num_inputs]
            tag = [scope.map_result(m, e, indices, on) for e in m.results]
            yield self.element_access(s, scope, READ, op.operands[0], tag)
        else:
            reason = f"'{name}' may read and write the whole memref"
            for memref in dict.fromkeys(v for v in op.operands if isinstance(v.type, MemRefType)):
                for kind in (READ, WRITE):
                    yield self.whole_access(s, scope, kind, memref, reason)

    def memref_name(self, memref: Value) -> str:
        names = self.model.memref_names
        if memref not in names:
            names[memref] = model_tuple_name("M", len(names))
        return names[memref]

    def _access(
        self,
        s: Statement,
        kind: str,
        buffer: Value,
        relation: isl.Map,
        reasons: list[str],
        must: bool | None = None,
    ) -> Access:
        exact = not reasons
        relation = _per_iteration_buffer(s, buffer, relation)
        return Access(
            s,
            kind,
            buffer,
            self.memref_name(buffer),
            coalesced(relation.intersect_domain(s.domain)),
            must=(exact if must is None else must) and not s.conditional,
            exact=exact and s.exact,
            reasons=reasons + s.reasons,
        )

    def element_access(
        self,
        s: Statement,
        scope: Scope,
        kind: str,
        memref: Value,
        subscripts: list[isl.PwAff | None],
        vector_extent: list[int] | None = None,
        clipped: bool = False,
        given: Sequence[str] = (),
    ) -> Access:
        """The elements from ``subscripts`` on, ``vector_extent`` of them along the trailing
        dimensions (all dimensions when it is as long as the subscripts); ``clipped``: only
        those inside the memref's static shape (the lanes past it are not accessed).
        ``given`` reasons make the access a may-access."""
        buffer, through_view = _trace_view(memref)
        if through_view:
            relation = self.view_relation(s, memref, buffer, subscripts, vector_extent)
            if relation is None:
                reason = f"access through a view of {buffer}"
                return self.whole_access(s, scope, kind, buffer, reason)
            reasons = [*given, *(["lanes past a view's shape are not accessed"] if clipped else [])]
            return self._access(s, kind, buffer, relation, reasons)
        t = memref.type
        assert isinstance(t, MemRefType)
        reasons = [f"non-affine subscript {k}" for k, x in enumerate(subscripts) if x is None]
        reasons += given
        rank = len(subscripts)
        relation = isl.Map.from_domain_and_range(
            s.space.universe, isl.Set.universe(memref_space(self.memref_name(buffer), rank))
        )
        widths = [1] * (rank - len(vector_extent or [])) + list(vector_extent or [])
        for k, (x, width) in enumerate(zip(subscripts, widths)):
            if x is not None:
                relation = relation.intersect(_coordinate_range(x, k, rank, width, relation))
        if clipped and DYNAMIC in t.shape:
            reasons.append("lanes past a dynamic size are not accessed")
        elif (clipped or any(x is None for x in subscripts)) and DYNAMIC not in t.shape:
            # lanes past the shape are not accessed; an index that is not affine stays
            # inside the shape (outside, the access has no meaning)
            relation = relation.intersect_range(within_shape(relation.range(), t.shape))
        relation = self.apply_layout(relation, t, scope, buffer, reasons)
        return self._access(s, kind, buffer, relation, reasons)

    def transfer_access(
        self,
        s: Statement,
        scope: Scope,
        op: Operation,
        memref: Value,
        indices: Sequence[Value],
        mask: Value | None,
    ) -> Access:
        """A ``vector.transfer_read``/``write``: from the indices, as many elements along each
        memref dimension as the vector dimension its permutation map names has lanes (one
        for the dimensions it does not name, and for broadcasts); lanes past the size of a
        dimension not marked ``in_bounds`` are not accessed; a mask makes it a may-access."""
        vector = transfer_vector_type(op)
        assert isinstance(vector, VectorType)
        widths = [1] * len(indices)
        clipped = False
        for d, size, inside in zip(transfer_dims(op), vector.shape, in_bounds(op)):
            if d is not None:
                widths[d] = size
                clipped = clipped or not inside
        subscripts = [scope.pw_aff(v, s.space) for v in indices]
        kind = READ if op.name == "vector.transfer_read" else WRITE
        reasons = [] if mask is None else ["masked lanes may not be accessed"]
        return self.element_access(s, scope, kind, memref, subscripts, widths, clipped, reasons)

    def view_relation(
        self,
        s: Statement,
        memref: Value,
        buffer: Value,
        subscripts: list[isl.PwAff | None],
        vector_extent: list[int] | None,
    ) -> isl.Map | None:
        """The exact elements of ``buffer`` an access through the view ``memref`` touches,
        when the view's layout has static strides and offset (positions in the buffer's
        allocation, as for subview, reinterpret_cast, collapse/expand_shape, transpose) and
        the buffer's element is its row-major position or its one-result layout; else None."""
        t, bt = memref.type, buffer.type
        if not isinstance(t, MemRefType) or not isinstance(bt, MemRefType):
            return None
        current = memref
        while current is not buffer and isinstance(current, OpResult):
            if current.owner.name == "memref.view":  # a byte shift the type does not show
                return None
            current = current.owner.operands[0]
        present = [x for x in subscripts if x is not None]
        if t.element_type != bt.element_type or len(present) != len(subscripts):
            return None
        view = _view_strides(memref)
        if view is None or DYNAMIC in view[0] or view[1] == DYNAMIC:
            return None
        name = self.memref_name(buffer)
        rank = len(subscripts)
        relation = isl.Map.from_domain_and_range(
            s.space.universe, isl.Set.universe(memref_space(name, rank))
        )
        widths = [1] * (rank - len(vector_extent or [])) + list(vector_extent or [])
        for k, (x, width) in enumerate(zip(present, widths)):
            relation = relation.intersect(_coordinate_range(x, k, rank, width, relation))
        to_position = strided_position_map(name, view[0], view[1])
        relation = relation.apply_range(to_position)
        if not bt.layout:
            if not bt.has_static_shape:
                return None
            return relation.apply_range(row_major_linearization(name, bt.shape).reverse())
        base = strides_and_offset(bt)
        m = _layout_map(bt)
        if m is None or m.num_results != 1 or base is None:
            return None
        if DYNAMIC in base[0] or base[1] == DYNAMIC:
            return None
        return relation.set_tuple_name(isl.dim_type.out, name)

    def range_access(
        self,
        s: Statement,
        scope: Scope,
        kind: str,
        memref: Value,
        start: list[isl.PwAff | None],
        count: isl.PwAff | None,
    ) -> Access:
        """``count`` consecutive elements (row-major order of the logical index space) from
        ``start``."""
        buffer, through_view = _trace_view(memref)
        t = memref.type
        assert isinstance(t, MemRefType)
        known = [x for x in start if x is not None]
        if through_view or count is None or len(known) != len(start) or DYNAMIC in t.shape:
            return self.whole_access(s, scope, kind, buffer, "DMA range not affine")
        ctx = isl_context()
        first = s.space.const(0)
        for x, size in zip(known, t.shape):
            first = first.scale_val(isl.Val.int_from_si(ctx, size)).add(x)
        positions = isl.Map.from_pw_aff(first).apply_range(half_line_map(later=True))
        positions = positions.intersect(
            isl.Map.from_pw_aff(first.add(count)).apply_range(half_line_map(later=False))
        )
        name = self.memref_name(buffer)
        linear = row_major_linearization(name, t.shape)
        relation = positions.apply_range(linear.reverse())
        reasons: list[str] = []
        relation = self.apply_layout(relation, t, scope, buffer, reasons)
        return self._access(s, kind, buffer, relation, reasons)

    def whole_access(
        self, s: Statement, scope: Scope, kind: str, memref: Value, reason: str
    ) -> Access:
        buffer, _ = _trace_view(memref)
        t = buffer.type
        rank = len(t.shape) if isinstance(t, MemRefType) else 0
        m = _layout_map(t) if isinstance(t, MemRefType) else None
        elements = rank if m is None else m.num_results
        region = isl.Set.universe(memref_space(self.memref_name(buffer), elements))
        if m is None and isinstance(t, MemRefType) and DYNAMIC not in t.shape:
            region = within_shape(region, t.shape)
        relation = isl.Map.from_domain_and_range(s.space.universe, region)
        return self._access(s, kind, buffer, relation, [reason], must=False)

    def apply_layout(
        self, relation: isl.Map, t: MemRefType, scope: Scope, buffer: Value, reasons: list[str]
    ) -> isl.Map:
        """Compose the access with the memref's layout: element = layout(logical index)."""
        m = _layout_map(t)
        if m is None:
            return relation
        values = _layout_symbol_values(buffer, m.num_symbols)
        if len({v for v in values if v is not None}) < len([v for v in values if v is not None]):
            m, values = _merge_repeated_symbols(m, values)
        constants = {
            k: c
            for k, v in enumerate(values)
            if v is not None and (c := scope.constant(v)) is not None
        }
        names = [
            scope.param_name(v if v is not None else (buffer, "layout", k))
            for k, v in enumerate(values)
        ]
        # Constants are bound; a value bound to several symbols is one parameter.
        kept: list[str] = []
        replacements: list[AffineExpr] = []
        for k, name in enumerate(names):
            if k in constants:
                replacements.append(const_expr(constants[k]))
                continue
            if name not in kept:
                kept.append(name)
            replacements.append(symbol(kept.index(name)))
        m = simplify_map(m.replace(None, replacements, m.num_dims, len(kept)))
        buffer_name = self.memref_name(buffer)
        try:
            layout = map_to_isl(m, kept, buffer_name, buffer_name)
        except NotPresburgerError:
            reasons.append(f"semi-affine layout {m}")
            elements = isl.Set.universe(memref_space(buffer_name, m.num_results))
            return isl.Map.from_domain_and_range(relation.domain(), elements)
        return relation.apply_range(layout)


def _merge_repeated_symbols(
    m: AffineMap, values: list[Value | None]
) -> tuple[AffineMap, list[Value | None]]:
    """``m`` with the symbols bound to the same value merged into one (ISL parameters are
    named after the values, so each value is one parameter), and the values of its symbols."""
    merged: list[Value | None] = []
    position: dict[Value, int] = {}
    replacements = []
    for v in values:
        if v is not None and v in position:
            replacements.append(symbol(position[v]))
            continue
        if v is not None:
            position[v] = len(merged)
        replacements.append(symbol(len(merged)))
        merged.append(v)
    return m.replace(None, replacements, m.num_dims, len(merged)), merged


def _num_ivs(loop: Operation) -> int:
    return len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1


def within_shape(region: isl.Set, shape: Sequence[int]) -> isl.Set:
    """``region`` where ``0 <= x_k < shape[k]`` for every dimension ``k``."""
    on = isl.LocalSpace.from_space(region.get_space())
    for k, size in enumerate(shape):
        index = isl.PwAff.var_on_domain(on, isl.dim_type.set, k)
        limit = isl.PwAff.val_on_domain(region, isl.Val.int_from_si(region.get_ctx(), size))
        region = region.intersect(index.nonneg_set()).intersect(limit.sub(index).pos_set())
    return region


def _coordinate_range(x: isl.PwAff, k: int, rank: int, width: int, like: isl.Map) -> isl.Map:
    """``{ S[ivs] -> M[i] : x(ivs) <= i_k < x(ivs) + width }`` in the space of ``like``."""
    window = window_map(rank, k, width)
    pointwise = isl.Map.from_pw_aff(x).apply_range(window)
    return pointwise.set_tuple_id(isl.dim_type.out, like.get_tuple_id(isl.dim_type.out))


def _set_as_map(s: IntegerSet) -> AffineMap:
    return AffineMap.get(s.num_dims, s.num_symbols, list(s.constraints))


def _vector_extent(op: Operation) -> list[int] | None:
    if "vector" not in op.name:
        return None
    t = op.results[0].type if "load" in op.name else op.operands[0].type
    return list(getattr(t, "shape", []))


def _layout_map(t: MemRefType) -> AffineMap | None:
    """The layout as one map over the logical index, or None for the identity layout.

    Strided layouts with a dynamic stride or offset are treated as one-to-one (the logical
    index names the element), as MLIR's dependence analysis does for every layout.
    """
    if not t.layout:
        return None
    if isinstance(t.layout, StridedLayout):
        if DYNAMIC in t.layout.strides or t.layout.offset == DYNAMIC:
            return None
    m = t.layout_map()
    if m is None or m.is_identity():
        return None
    return m


def _layout_symbol_values(buffer: Value, count: int) -> list[Value | None]:
    """The values bound to a layout's symbols (an allocation's symbol operands), if known."""
    if count == 0:
        return []
    if isinstance(buffer, OpResult) and buffer.owner.name in ("memref.alloc", "memref.alloca"):
        sizes = buffer.owner.properties["operandSegmentSizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        symbols = buffer.owner.operands[sizes[0] : sizes[0] + sizes[1]]
        if len(symbols) == count:
            return list(symbols)
    return [None] * count


def _per_iteration_buffer(s: Statement, buffer: Value, relation: isl.Map) -> isl.Map:
    """A buffer allocated inside loops is a new buffer in each of their iterations: its
    elements are told apart by the IVs of those loops (prepended to the element), so no
    dependence is carried across them."""
    if not isinstance(buffer, OpResult) or buffer.owner.name not in (
        "memref.alloc",
        "memref.alloca",
    ):
        return relation
    enclosing = set()
    parent = buffer.owner.parent_op
    while parent is not None:
        enclosing.add(id(parent))
        parent = parent.parent_op
    count = 0
    for loop in s.loops:
        if id(loop) not in enclosing:
            break
        count += _num_ivs(loop)
    if not count:
        return relation
    ivs = s.space.iv_names
    prefix = prefix_map(s.space.name, ivs, count)
    name = relation.get_tuple_name(isl.dim_type.out)
    return prefix.flat_range_product(relation).set_tuple_name(isl.dim_type.out, name)


def _view_strides(memref: Value) -> tuple[list[int], int] | None:
    """The strides and offset of ``memref`` (``DYNAMIC`` where unknown). A cast keeps its
    source's descriptor, so what its type leaves dynamic is taken from the source."""

    t = memref.type
    own = strides_and_offset(t) if isinstance(t, MemRefType) else None  # unranked: no strides
    if own is None:
        return None
    strides, offset = list(own[0]), own[1]
    if (
        isinstance(memref, OpResult)
        and memref.owner.name in LAYOUT_PRESERVING
        and (DYNAMIC in strides or offset == DYNAMIC)
    ):
        source = _view_strides(memref.owner.operands[0])
        if source is not None and len(source[0]) == len(strides):
            strides = [s if s != DYNAMIC else b for s, b in zip(strides, source[0])]
            offset = offset if offset != DYNAMIC else source[1]
    return strides, offset


def _trace_view(memref: Value) -> tuple[Value, bool]:
    """The buffer a memref value aliases, and whether it was reached through a view. Every
    ``memref.get_global`` of one global stands for the first one in the module."""
    through = False
    current = memref
    for _ in range(64):
        if isinstance(current, OpResult) and current.owner.name in VIEW_OPS:
            current = current.owner.operands[0]
            through = True
        else:
            break
    if isinstance(current, OpResult) and current.owner.name == "memref.get_global":
        current = _first_get_global(current.owner)
    return current, through


_GLOBALS: dict[int, tuple[Operation, dict[str, Value]]] = {}


def _first_get_global(op: Operation) -> Value:
    root = op
    while root.parent_op is not None:
        root = root.parent_op
    cached = _GLOBALS.get(id(root))
    if cached is None or cached[0] is not root:
        first: dict[str, Value] = {}
        for candidate in root.walk():
            if candidate.name == "memref.get_global":
                name = candidate.properties.get("name")
                key = str(name)
                first.setdefault(key, candidate.results[0])
        cached = (root, first)
        _GLOBALS.clear()
        _GLOBALS[id(root)] = cached
    return cached[1].get(str(op.properties.get("name")), op.results[0])


def _conditional(op: Operation, region: Region) -> bool:
    """Whether an op between ``op`` and the scope ``region`` may not run its region at an
    instance of the affine loops around ``op`` (any but ``affine.for``, ``affine.parallel``
    and ``affine.if``, whose bounds and conditions the domain holds)."""
    inner = op
    while inner.parent is not None and inner.parent.parent is not region:
        owner = inner.parent_op
        if owner is None:
            return False
        if owner.name not in (*LOOP_OPS, "affine.if"):
            return True
        inner = owner
    return False


def _ancestors_in_scope(op: Operation, region: Region) -> list[Operation]:
    """Ops enclosing ``op`` inside the scope region, outermost first."""
    chain = []
    parent = op.parent_op
    while parent is not None:
        block = parent.parent
        chain.append(parent)
        if block is not None and block.parent is region:
            break
        parent = parent.parent_op
    return chain[::-1]


def _positions(
    op: Operation, chain: list[Operation], order: dict[Operation, int]
) -> tuple[int, ...]:
    """2d+1 schedule constants: at each loop depth, the position of the next enclosing loop
    (or of the op itself) in walk order. Only their relative order matters, and walk order is
    textual order, so ops under an ``affine.if`` keep theirs."""
    loops = [a for a in chain if a.name in LOOP_OPS]
    return tuple(order[target] for target in [*loops, op])


def _is_scope_op(op: Operation) -> bool:
    d = lookup(op.name)
    return d is not None and d.has(AFFINE_SCOPE)


def instances_of(model: Model, op: Operation) -> Statement:
    """The instances of any ``op`` inside an affine scope of ``model`` (one that touches no
    memory too), as a statement that is not added to the model: its domain over the IVs of
    the loops around it, named as the model names them (so parameters agree with the
    model's accesses). Raises :class:`ModelError` outside an affine scope."""
    builder = _Builder(model, {})
    scope = builder.scope_of(op)
    if scope is None or scope.region.parent is None:
        raise ModelError(f"{op.name} is not inside an affine scope (a function)")
    key = ("walk order", id(scope.region))
    order = model.cache.get(key)
    if not isinstance(order, dict):
        order = model.cache[key] = {x: k for k, x in enumerate(scope.region.parent.walk())}
    builder.order = order
    return builder.statement(op, scope)


@dataclass
class BandInstances:
    """The iterations of a perfect loop band as an ISL set over the band's IVs.

    IVs of loops around the band, and symbol values, are parameters (``params`` gives the
    value of each); ``exact`` is False when some bound or condition was not affine (the
    set is then larger than the real iteration space).
    """

    name: str
    domain: isl.Set
    iv_names: list[str]
    ivs: list[Value]
    params: dict[str, Value]
    exact: bool
    reasons: list[str]
    context: isl.Set  # what holds for the parameters wherever the band runs (outer loops)


def band_instances(band: Sequence[Operation]) -> BandInstances:
    """The iteration space of ``band`` (outermost first; each loop the only op, apart from
    its terminator, in the body of the one before)."""
    innermost = band[-1].regions[0].blocks[0]
    anchor = innermost.operations[0]
    model = Model(isl_context())
    builder = _Builder(model, {})
    scope = builder.scope_of(anchor)
    if scope is None or scope.region.parent is None:
        raise ModelError("the band is not inside an affine scope (a function)")
    builder.order = {op: k for k, op in enumerate(scope.region.parent.walk())}
    statement = builder.statement(anchor, scope)
    band_ivs: list[Value] = [
        iv for loop in band for iv in loop.regions[0].blocks[0].arguments[: _num_ivs(loop)]
    ]
    band_names = [scope.iv_name(iv) for iv in band_ivs]
    outer = [n for n in statement.iv_names if n not in band_names]
    if statement.iv_names[len(outer) :] != band_names:
        raise ModelError("the loops do not form a band")
    domain = statement.domain.move_dims(isl.dim_type.param, 0, isl.dim_type.set, 0, len(outer))
    outer_values = {
        scope.iv_name(iv): iv
        for loop in statement.loops[: len(statement.loops) - len(band)]
        for iv in loop.regions[0].blocks[0].arguments[: _num_ivs(loop)]
    }
    # The loops and conditions around the band: the band's outermost loop as a statement.
    around = builder.statement(band[0], scope)
    context = around.domain.move_dims(
        isl.dim_type.param, 0, isl.dim_type.set, 0, around.domain.dim(isl.dim_type.set)
    ).params()
    params = {name: key for key, name in scope.param_names.items() if isinstance(key, Value)}
    if len(params) != len(scope.param_names):
        raise ModelError("a bound depends on a layout symbol the IR does not hold")
    return BandInstances(
        statement.name,
        domain.set_tuple_name(statement.name),
        band_names,
        band_ivs,
        {**params, **outer_values},
        statement.exact,
        statement.reasons,
        context,
    )
