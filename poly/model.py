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
* a semi-affine subscript (``d0 * s0``, ``floordiv s0``) whose symbol is not a constant, or
  a subscript that is not affine at all, leaves that element coordinate unconstrained;
* ``memref.load/store`` with affine indices are exact accesses; with other indices, and
  calls or unknown ops that take a memref, they may read and write the whole memref;
* views (``memref.subview``, ``cast``, ``reinterpret_cast``, ...) are traced to the buffer
  they alias and access all of it;
* DMA ops read ``count`` consecutive elements (row-major order of the logical index space)
  of the source, write as many of the destination, and write their tag; ``dma_wait``
  reads the tag.

As in MLIR, distinct memref values (function arguments, allocations) are assumed not to
alias. ``Model.schedule`` is the original execution order in 2d+1 form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import islpy as isl

from affine.affine_map import AffineMap
from affine.dialects.affine_dialect import (
    DmaStartOp,
    ForOp,
    IfOp,
    ParallelOp,
    affine_scope,
    is_valid_symbol,
)
from affine.dialects.registry import AFFINE_SCOPE, lookup
from affine.expr import ADD, CEILDIV, CONST, DIM, FLOORDIV, MUL, SYMBOL, AffineExpr
from affine.integer_set import IntegerSet
from affine.ir import BlockArgument, Module, Operation, OpResult, Region, Value
from affine.types import DYNAMIC, IndexType, IntegerType, MemRefType, StridedLayout

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
)
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


class ModelError(Exception):
    """Something the model cannot represent at all (the analysis answers "unknown")."""


# -- affine values ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Linear:
    """An index value as an affine expression over named atoms (IVs and parameters)."""

    expr: AffineExpr  # dims: positions in ``ivs``; symbols: positions in ``params``
    ivs: tuple[Value, ...]
    params: tuple[Value, ...]


class Scope:
    """One affine scope (a function body): names for its IVs, parameters and memrefs.

    This object owns the mapping between IR values and ISL names: IV ``k`` of loop op ``L``
    is ``i<L#>_<k>`` and a symbol value is ``p<n>``, numbered in first-use order, so that
    every set and relation of the scope aligns by name.
    """

    def __init__(self, region: Region, model: Model) -> None:
        self.region = region
        self.model = model
        self.param_values: list[Value] = []
        self.param_names: dict[Value, str] = {}
        self.loop_ids: dict[Operation, int] = {}

    # names ---------------------------------------------------------------------------------------
    def iv_name(self, iv: Value) -> str:
        assert isinstance(iv, BlockArgument)
        loop = iv.owner.parent_op
        assert loop is not None
        if loop not in self.loop_ids:
            self.loop_ids[loop] = len(self.loop_ids)
        return f"i{self.loop_ids[loop]}_{iv.index}"

    def param_name(self, value: Value) -> str:
        if value not in self.param_names:
            self.param_names[value] = f"p{len(self.param_values)}"
            self.param_values.append(value)
        return self.param_names[value]

    def fresh_param(self, key: object) -> str:
        """A parameter standing for an unknown run-time number (a layout symbol, say)."""
        marker = _Opaque(key)
        if marker not in self.param_names:
            self.param_names[marker] = f"p{len(self.param_values)}"  # type: ignore[index]
            self.param_values.append(marker)  # type: ignore[arg-type]
        return self.param_names[marker]  # type: ignore[index]

    def params_text(self) -> str:
        return "[" + ", ".join(self.param_names[v] for v in self.param_values) + "]"

    # values --------------------------------------------------------------------------------------
    def affine_text(self, value: Value, depth: int = 0) -> str | None:
        """ISL text of an index value, or None when it is not an affine function of IVs and
        parameters (semi-affine with a non-constant symbol, loaded values, ...)."""
        if depth > 64:
            return None
        if _is_loop_iv(value):
            return self.iv_name(value)
        constant = self.constant(value)
        if constant is not None:
            return str(constant)
        if isinstance(value, OpResult):
            op = value.owner
            if op.name == "affine.apply":
                m: AffineMap = op.get_attr("map").value  # type: ignore[union-attr]
                return self.map_result_text(m, m.results[0], op.operands, depth + 1)
            if op.name in ("arith.addi", "arith.subi", "arith.muli") and isinstance(
                value.type, IndexType
            ):
                lhs = self.affine_text(op.operands[0], depth + 1)
                rhs = self.affine_text(op.operands[1], depth + 1)
                if lhs is None or rhs is None:
                    return None
                if op.name == "arith.muli":
                    left_c, right_c = (
                        _constant_value(op.operands[0]),
                        _constant_value(op.operands[1]),
                    )
                    if left_c is None and right_c is None:
                        return self._symbol_or_none(value)
                return f"({lhs} {'+' if op.name == 'arith.addi' else '-' if op.name == 'arith.subi' else '*'} {rhs})"
            if op.name == "arith.index_cast" and isinstance(op.operands[0].type, IndexType):
                return self.affine_text(op.operands[0], depth + 1)
        return self._symbol_or_none(value)

    def constant(self, value: Value) -> int | None:
        """The value of an index constant, or of a value the model was told to fix."""
        bound = self.model.bindings.get(value)
        return bound if bound is not None else _constant_value(value)

    def _symbol_or_none(self, value: Value) -> str | None:
        if isinstance(value.type, IndexType) and is_valid_symbol(value, self.region):
            return self.param_name(value)
        return None

    def map_result_text(
        self, m: AffineMap, e: AffineExpr, operands: list[Value], depth: int = 0
    ) -> str | None:
        """ISL text of one result of ``m`` applied to ``operands``, or None if not affine."""
        texts: list[str | None] = [self.affine_text(v, depth) for v in operands]
        constants = [self.constant(v) for v in operands]
        return _expr_text(e, texts, m.num_dims, constants)


class _Opaque:
    """A hashable stand-in for an unknown parameter (not an IR value)."""

    __slots__ = ("key",)

    def __init__(self, key: object) -> None:
        self.key = key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Opaque) and other.key == self.key

    def __hash__(self) -> int:
        return hash(("opaque", self.key))


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


def _expr_text(
    e: AffineExpr, inputs: list[str | None], num_dims: int, constants: list[int | None]
) -> str | None:
    """ISL text of ``e`` with dims and symbols replaced by ``inputs`` (None: not affine).

    Products and divisions need a constant on one side once symbols bound to constants are
    substituted; anything else is semi-affine and has no ISL form (None).
    """

    def value_of(x: AffineExpr) -> int | None:
        """The constant ``x`` evaluates to when its symbols/dims are constants."""
        if x.kind == CONST:
            return x.value
        if x.kind in (DIM, SYMBOL):
            pos = x.position if x.kind == DIM else num_dims + x.position
            return constants[pos]
        lhs, rhs = value_of(x.lhs), value_of(x.rhs)
        if lhs is None or rhs is None:
            return None
        if x.kind == ADD:
            return lhs + rhs
        if x.kind == MUL:
            return lhs * rhs
        if rhs == 0:
            return None
        if x.kind == FLOORDIV:
            return lhs // rhs
        if x.kind == CEILDIV:
            return -(-lhs // rhs)
        return lhs % rhs

    def rec(x: AffineExpr) -> str | None:
        known = value_of(x)
        if known is not None:
            return str(known)
        if x.kind in (DIM, SYMBOL):
            return inputs[x.position if x.kind == DIM else num_dims + x.position]
        lhs = rec(x.lhs)
        if lhs is None:
            return None
        if x.kind == ADD:
            rhs = rec(x.rhs)
            return None if rhs is None else f"({lhs} + {rhs})"
        divisor = value_of(x.rhs)
        if x.kind == MUL:
            if divisor is None:
                left = value_of(x.lhs)
                rhs = rec(x.rhs)
                return None if left is None or rhs is None else f"({left} * {rhs})"
            return f"({divisor} * {lhs})"
        if divisor is None or divisor <= 0:
            return None
        if x.kind == FLOORDIV:
            return f"floor(({lhs}) / {divisor})"
        if x.kind == CEILDIV:
            return f"ceil(({lhs}) / {divisor})"
        return f"(({lhs}) mod {divisor})"

    return rec(e)


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

    @property
    def depth(self) -> int:
        return len(self.iv_names)

    def schedule_vector(self) -> list[str]:
        """``[b0, ivs of loop 1, b1, ivs of loop 2, ..., bk]`` as ISL text."""
        vector = []
        ivs = iter(self.iv_names)
        for position, loop in zip(self.position, self.loops):
            vector.append(str(position))
            count = (
                len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1
            )
            vector.extend(next(ivs) for _ in range(count))
        vector.append(str(self.position[-1]))
        return vector

    def schedule_map(
        self, width: int, name: str | None = None, tail: tuple[int, ...] = ()
    ) -> isl.Map:
        """The schedule padded with zeros to ``width`` dims (then ``tail``), on the domain
        tuple ``name`` (the statement's own by default)."""
        vector = self.schedule_vector()
        vector += ["0"] * (width - len(vector)) + [str(t) for t in tail]
        text = (
            f"{self.scope.params_text()} -> {{ {name or self.name}[{', '.join(self.iv_names)}]"
            f" -> [{', '.join(vector)}] }}"
        )
        domain = self.domain if name is None else self.domain.set_tuple_name(name)
        return isl.Map.read_from_str(self.scope.model.ctx, text).intersect_domain(domain)


@dataclass
class Access:
    """One way a statement touches a memref: ``{ S[ivs] -> M[element] }``.

    ``number`` is the access's number as ``-test-memref-dependence-check`` counts them
    (``affine.load``/``affine.store`` in module walk order); None for other accesses.
    ``must`` is False for may-accesses (the whole memref, or an approximated element set).
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

    def __repr__(self) -> str:
        tag = f"#{self.number} " if self.number is not None else ""
        return f"<Access {tag}{self.kind} {self.op.name} {self.relation}>"


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


def build_model(
    root: Module | Operation,
    ctx: isl.Context | None = None,
    bindings: Mapping[Value, int] | None = None,
) -> Model:
    """The polyhedral model of every statement under ``root`` (a module or one function).

    ``bindings`` fixes index values (function arguments, say) to constants: the model of
    that instance of the code, with semi-affine subscripts over those values made affine.
    """
    op = root.operation if isinstance(root, Module) else root
    model = Model(ctx or isl.Context(), dict(bindings or {}))
    order = {inner: k for k, inner in enumerate(op.walk())}
    builder = _Builder(model, order)
    number = 0
    for inner in order:
        statement_accesses = builder.visit(inner)
        for access in statement_accesses:
            if inner.name in ("affine.load", "affine.store"):
                access.number = number
        if inner.name in ("affine.load", "affine.store"):
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
        loops = [a for a in chain if a.name in LOOPS_ALL]
        iv_names: list[str] = []
        constraints: list[str] = []
        reasons: list[str] = []
        for ancestor in chain:
            if ancestor.name == "affine.for":
                iv_names.append(scope.iv_name(ForOp(ancestor).induction_var))
                constraints.append(self.for_constraints(ancestor, scope, reasons))
            elif ancestor.name == "affine.parallel":
                par = ParallelOp(ancestor)
                iv_names.extend(scope.iv_name(iv) for iv in par.induction_vars)
                constraints.append(self.parallel_constraints(ancestor, scope, reasons))
        name = f"S{len(self.model.statements)}"
        text = f"{scope.params_text()} -> {{ {name}[{', '.join(iv_names)}] }}"
        domain = isl.Set.read_from_str(self.model.ctx, text)
        for c in constraints:
            if c:
                domain = domain.intersect(
                    isl.Set.read_from_str(
                        self.model.ctx,
                        f"{scope.params_text()} -> {{ {name}[{', '.join(iv_names)}] : {c} }}",
                    )
                )
        for ancestor, child in zip(chain, [*chain[1:], op]):
            if ancestor.name == "affine.if":
                domain = self.if_restrict(ancestor, child, domain, name, iv_names, scope, reasons)
        position = _positions(op, chain, self.order)
        return Statement(
            name, op, scope, loops, iv_names, domain.coalesce(), not reasons, reasons, position
        )

    def bound_terms(
        self, m: AffineMap, operands: list[Value], scope: Scope, reasons: list[str], what: str
    ) -> list[str]:
        terms = []
        for e in m.results:
            text = scope.map_result_text(m, e, operands)
            if text is None:
                reasons.append(f"non-affine {what} {e} dropped")
            else:
                terms.append(text)
        return terms

    def for_constraints(self, op: Operation, scope: Scope, reasons: list[str]) -> str:
        loop = ForOp(op)
        iv = scope.iv_name(loop.induction_var)
        lbs = self.bound_terms(
            loop.lower_bound_map, loop.lower_bound_operands, scope, reasons, "lower bound"
        )
        ubs = self.bound_terms(
            loop.upper_bound_map, loop.upper_bound_operands, scope, reasons, "upper bound"
        )
        return _range_constraint(
            iv, lbs, ubs, loop.step, len(lbs) == loop.lower_bound_map.num_results
        )

    def parallel_constraints(self, op: Operation, scope: Scope, reasons: list[str]) -> str:
        par = ParallelOp(op)
        parts = []
        lb_pos = ub_pos = 0
        for k, iv_value in enumerate(par.induction_vars):
            iv = scope.iv_name(iv_value)
            lb_count, ub_count = par.lower_bounds_groups[k], par.upper_bounds_groups[k]
            lb_map = par.lower_bounds_map.sub_map(list(range(lb_pos, lb_pos + lb_count)))
            ub_map = par.upper_bounds_map.sub_map(list(range(ub_pos, ub_pos + ub_count)))
            lb_pos += lb_count
            ub_pos += ub_count
            lbs = self.bound_terms(lb_map, par.lower_bounds_operands, scope, reasons, "lower bound")
            ubs = self.bound_terms(ub_map, par.upper_bounds_operands, scope, reasons, "upper bound")
            parts.append(_range_constraint(iv, lbs, ubs, par.steps[k], len(lbs) == lb_count))
        return " and ".join(p for p in parts if p)

    def if_restrict(
        self,
        op: Operation,
        child: Operation,
        domain: isl.Set,
        name: str,
        iv_names: list[str],
        scope: Scope,
        reasons: list[str],
    ) -> isl.Set:
        cond = IfOp(op).condition
        texts = []
        for e, is_eq in zip(cond.constraints, cond.eq_flags):
            t = scope.map_result_text(_set_as_map(cond), e, op.operands)
            if t is None:
                reasons.append(f"non-affine condition {cond} dropped")
                return domain
            texts.append(f"{t} {'=' if is_eq else '>='} 0")
        if not texts:
            return domain
        cset = isl.Set.read_from_str(
            self.model.ctx,
            f"{scope.params_text()} -> {{ {name}[{', '.join(iv_names)}] : {' and '.join(texts)} }}",
        )
        in_then = child.parent is not None and child.parent.parent is op.regions[0]
        return domain.intersect(cset) if in_then else domain.subtract(cset)

    # accesses ------------------------------------------------------------------------------------
    def accesses(self, s: Statement, scope: Scope) -> Iterator[Access]:
        op = s.op
        name = op.name
        if name in ("affine.load", "affine.vector_load", "affine.store", "affine.vector_store"):
            is_load = "load" in name
            memref = op.operands[0] if is_load else op.operands[1]
            m: AffineMap = op.get_attr("map").value  # type: ignore[union-attr]
            operands = op.operands[1:] if is_load else op.operands[2:]
            subscripts = [scope.map_result_text(m, e, operands) for e in m.results]
            vector_extent = _vector_extent(op)
            yield self.element_access(
                s, scope, READ if is_load else WRITE, memref, subscripts, vector_extent
            )
        elif name in ("memref.load", "memref.store"):
            is_load = name == "memref.load"
            memref = op.operands[0] if is_load else op.operands[1]
            operands = op.operands[1:] if is_load else op.operands[2:]
            subscripts = [scope.affine_text(v) for v in operands]
            yield self.element_access(s, scope, READ if is_load else WRITE, memref, subscripts)
        elif name == "affine.dma_start":
            dma = DmaStartOp(op)
            count = scope.affine_text(dma.num_elements)
            for kind, memref, m, operands in (
                (READ, dma.src, dma.src_map, dma.src_indices),
                (WRITE, dma.dst, dma.dst_map, dma.dst_indices),
            ):
                start = [scope.map_result_text(m, e, operands) for e in m.results]
                yield self.range_access(s, scope, kind, memref, start, count)
            tag_m = dma.tag_map
            tag = [scope.map_result_text(tag_m, e, dma.tag_indices) for e in tag_m.results]
            yield self.element_access(s, scope, WRITE, dma.tag, tag)
        elif name == "affine.dma_wait":
            m = op.get_attr("tag_map").value  # type: ignore[union-attr]
            tag = [
                scope.map_result_text(m, e, op.operands[1 : 1 + m.num_inputs]) for e in m.results
            ]
            yield self.element_access(s, scope, READ, op.operands[0], tag)
        else:
            reason = f"'{name}' may read and write the whole memref"
            for memref in dict.fromkeys(v for v in op.operands if isinstance(v.type, MemRefType)):
                for kind in (READ, WRITE):
                    yield self.whole_access(s, scope, kind, memref, reason)

    def memref_name(self, memref: Value) -> str:
        names = self.model.memref_names
        if memref not in names:
            names[memref] = f"M{len(names)}"
        return names[memref]

    def _relation(self, s: Statement, scope: Scope, memref: Value, body: str) -> isl.Map:
        text = f"{scope.params_text()} -> {{ {s.name}[{', '.join(s.iv_names)}] -> {body} }}"
        return isl.Map.read_from_str(self.model.ctx, text).intersect_domain(s.domain)

    def element_access(
        self,
        s: Statement,
        scope: Scope,
        kind: str,
        memref: Value,
        subscripts: list[str | None],
        vector_extent: list[int] | None = None,
    ) -> Access:
        buffer, through_view = _trace_view(memref)
        if through_view:
            return self.whole_access(s, scope, kind, buffer, f"access through a view of {buffer}")
        t = memref.type
        assert isinstance(t, MemRefType)
        reasons = [f"non-affine subscript {k}" for k, x in enumerate(subscripts) if x is None]
        rank = len(subscripts)
        names = [f"e{k}" for k in range(rank)]
        constraints = []
        for k, x in enumerate(subscripts):
            if x is None:
                continue
            if vector_extent and k >= rank - len(vector_extent):
                width = vector_extent[k - (rank - len(vector_extent))]
                constraints.append(f"{x} <= e{k} < {x} + {width}")
            else:
                constraints.append(f"e{k} = {x}")
        logical = f"{self.memref_name(buffer)}[{', '.join(names)}]" + (
            f" : {' and '.join(constraints)}" if constraints else ""
        )
        relation = self._relation(s, scope, buffer, logical)
        relation = self.apply_layout(relation, t, scope, buffer, reasons)
        return Access(
            s,
            kind,
            buffer,
            self.memref_name(buffer),
            relation,
            must=not reasons,
            exact=not reasons and s.exact,
            reasons=reasons + s.reasons,
        )

    def range_access(
        self,
        s: Statement,
        scope: Scope,
        kind: str,
        memref: Value,
        start: list[str | None],
        count: str | None,
    ) -> Access:
        buffer, through_view = _trace_view(memref)
        t = memref.type
        assert isinstance(t, MemRefType)
        if (
            through_view
            or count is None
            or any(x is None for x in start)
            or any(d == DYNAMIC for d in t.shape)
        ):
            return self.whole_access(s, scope, kind, buffer, "DMA range not affine")
        names = [f"e{k}" for k in range(len(start))]
        linear_e = _linear_text(names, t.shape)
        linear_start = _linear_text([f"({x})" for x in start], t.shape)  # type: ignore[misc]
        bounds = " and ".join(f"0 <= {n} < {d}" for n, d in zip(names, t.shape))
        body = f"{self.memref_name(buffer)}[{', '.join(names)}] : {linear_start} <= {linear_e} < {linear_start} + {count}"
        if bounds:
            body += f" and {bounds}"
        relation = self._relation(s, scope, buffer, body)
        reasons: list[str] = []
        relation = self.apply_layout(relation, t, scope, buffer, reasons)
        return Access(
            s,
            kind,
            buffer,
            self.memref_name(buffer),
            relation,
            must=not reasons,
            exact=not reasons and s.exact,
            reasons=reasons + s.reasons,
        )

    def whole_access(
        self, s: Statement, scope: Scope, kind: str, memref: Value, reason: str
    ) -> Access:
        buffer, _ = _trace_view(memref)
        t = buffer.type
        rank = len(t.shape) if isinstance(t, MemRefType) else 0
        elements = self._layout_space_rank(t) if isinstance(t, MemRefType) else rank
        names = ", ".join(f"e{k}" for k in range(elements))
        relation = self._relation(s, scope, buffer, f"{self.memref_name(buffer)}[{names}]")
        return Access(
            s,
            kind,
            buffer,
            self.memref_name(buffer),
            relation,
            must=False,
            exact=False,
            reasons=[reason, *s.reasons],
        )

    def _layout_space_rank(self, t: MemRefType) -> int:
        m = _layout_map(t)
        return len(t.shape) if m is None else m.num_results

    def apply_layout(
        self, relation: isl.Map, t: MemRefType, scope: Scope, buffer: Value, reasons: list[str]
    ) -> isl.Map:
        """Compose the access with the memref's layout: element = layout(logical index)."""
        m = _layout_map(t)
        if m is None:
            return relation
        rank = len(t.shape)
        layout_symbols = _layout_symbol_values(buffer, m.num_symbols)
        sym_texts = [
            scope.affine_text(v) if v is not None else scope.fresh_param((buffer, k))
            for k, v in enumerate(layout_symbols)
        ]
        names = [f"x{k}" for k in range(rank)]
        results = []
        for e in m.results:
            text = _expr_text(e, [*names, *sym_texts], rank, [None] * (rank + m.num_symbols))
            results.append(text)
        out_names = [f"y{k}" for k in range(len(results))]
        constraints = [f"{y} = {x}" for y, x in zip(out_names, results) if x is not None]
        if any(x is None for x in results):
            reasons.append(f"semi-affine layout {m}")
        buffer_name = self.memref_name(buffer)
        text = (
            f"{scope.params_text()} -> {{ {buffer_name}[{', '.join(names)}] -> "
            f"{buffer_name}[{', '.join(out_names)}]"
            + (f" : {' and '.join(constraints)}" if constraints else "")
            + " }"
        )
        layout = isl.Map.read_from_str(self.model.ctx, text)
        return relation.apply_range(layout)


LOOPS_ALL = LOOP_OPS


def _range_constraint(
    iv: str, lbs: list[str], ubs: list[str], step: int, lbs_complete: bool
) -> str:
    parts = [f"{iv} >= {lb}" for lb in lbs] + [f"{iv} < {ub}" for ub in ubs]
    if step != 1 and lbs and lbs_complete:
        # iv = max(lbs) + step * k: one disjunct per lower bound that can be the maximum.
        options = []
        for k, lb in enumerate(lbs):
            others = [f"{lb} >= {o}" for j, o in enumerate(lbs) if j != k]
            options.append("(" + " and ".join([*others, f"({iv} - ({lb})) mod {step} = 0"]) + ")")
        parts.append("(" + " or ".join(options) + ")")
    return " and ".join(parts)


def _linear_text(coords: list[str], shape: tuple[int, ...] | list[int]) -> str:
    """Row-major linear position of ``coords`` in ``shape``."""
    text = "0"
    for c, d in zip(coords, shape):
        text = f"(({text}) * {d} + {c})"
    return text


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
        sizes = buffer.owner.properties["operandSegmentSizes"].values  # type: ignore[attr-defined]
        symbols = buffer.owner.operands[sizes[0] : sizes[0] + sizes[1]]
        if len(symbols) == count:
            return list(symbols)
    return [None] * count


def _trace_view(memref: Value) -> tuple[Value, bool]:
    """The buffer a memref value aliases, and whether it was reached through a view."""
    through = False
    current = memref
    for _ in range(64):
        if isinstance(current, OpResult) and current.owner.name in VIEW_OPS:
            current = current.owner.operands[0]
            through = True
        else:
            break
    return current, through


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
