"""Loops from schedules: ISL's AST generator turned into ``affine.for`` / ``affine.if``.

:func:`generate` takes a schedule ``{ S[ivs] -> [t0, t1, ...] }`` for the instances of
statements, builds ISL's AST for it, and emits the loops into a block: a ``for`` becomes
an ``affine.for`` whose bounds are ``max``/``min`` maps over the enclosing new IVs and the
parameters, an ``if`` an ``affine.if`` on the conjunction of its conditions, and each
statement instance a call of the ``emit`` callback with, for every original IV, an
``affine.apply`` computing it from the new IVs. ISL's expressions become affine
expressions exactly (``floor``, ``mod`` and ``max``/``min`` included); an AST this module
cannot express (a disjunctive condition, a non-constant stride) raises
:class:`CodegenError`, so the caller can refuse the transformation with that reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine.dialects.builders import affine_apply, affine_for, affine_if
from affine.errors import PolyError
from affine.ir.core import Block, BlockArgument, Operation, Value
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim, symbol
from affine.math.integer_set import IntegerSet
from poly.context import isl_context
from poly.model import BandInstances, ModelError, band_instances


class CodegenError(PolyError):
    """An AST the affine dialect cannot express."""


Emit = Callable[[str, list[Value], Block, Operation | None], None]
"""``emit(statement name, original IV values, block, insert before)``."""

_op = isl.ast_expr_op_type


@dataclass
class _Env:
    """The values that AST names stand for: new loop IVs and parameters."""

    ivs: dict[str, Value] = field(default_factory=dict)
    params: Mapping[str, Value] = field(default_factory=dict)

    def extended(self, name: str, value: Value) -> _Env:
        return _Env({**self.ivs, name: value}, self.params)


class _Affine:
    """Collects the values an AST expression uses, as dims (IVs) and symbols (parameters)."""

    def __init__(self, env: _Env) -> None:
        self.env = env
        self.dims: list[Value] = []
        self.symbols: list[Value] = []

    def _leaf(self, name: str) -> AffineExpr:
        if name in self.env.ivs:
            value = self.env.ivs[name]
            if value not in self.dims:
                self.dims.append(value)
            return dim(self.dims.index(value))
        if name in self.env.params:
            value = self.env.params[name]
            if _is_loop_iv(value):  # an IV of a loop around: a dimension, never a symbol
                if value not in self.dims:
                    self.dims.append(value)
                return dim(self.dims.index(value))
            if value not in self.symbols:
                self.symbols.append(value)
            return symbol(self.symbols.index(value))
        raise CodegenError(f"the AST uses '{name}', which stands for no value")

    def expr(self, e: isl.AstExpr) -> AffineExpr:
        kind = e.get_type()
        if kind == isl.ast_expr_type.int:
            return constant(e.get_val().to_python())
        if kind == isl.ast_expr_type.id:
            return self._leaf(e.get_id().get_name())
        op = e.get_op_type()
        args = [e.get_op_arg(k) for k in range(e.get_op_n_arg())]
        if op == _op.minus:
            return -self.expr(args[0])
        if op in (_op.add, _op.sub, _op.mul):
            lhs, rhs = self.expr(args[0]), self.expr(args[1])
            if op == _op.add:
                return lhs + rhs
            if op == _op.sub:
                return lhs - rhs
            if not (lhs.is_constant or rhs.is_constant):
                raise CodegenError(f"product of two variables in {e.to_C_str()}")
            return lhs * rhs
        if op in (_op.fdiv_q, _op.pdiv_q, _op.div):
            # div and pdiv_q are exact or known non-negative: floor division is right
            return self.expr(args[0]).floordiv(self._constant(args[1], e))
        if op in (_op.pdiv_r, _op.zdiv_r):
            # the remainder of a non-negative numerator, or compared with zero only
            return self.expr(args[0]).mod(self._constant(args[1], e))
        raise CodegenError(f"'{e.to_C_str()}' is not an affine expression")

    def _constant(self, e: isl.AstExpr, whole: isl.AstExpr) -> int:
        if e.get_type() != isl.ast_expr_type.int:
            raise CodegenError(f"division by a non-constant in {whole.to_C_str()}")
        return e.get_val().to_python()

    def terms(self, e: isl.AstExpr, combine: isl.ast_expr_op_type) -> list[AffineExpr]:
        """The arguments of a ``max``/``min`` (or the expression itself)."""
        if e.get_type() == isl.ast_expr_type.op and e.get_op_type() == combine:
            return [
                t for k in range(e.get_op_n_arg()) for t in self.terms(e.get_op_arg(k), combine)
            ]
        return [self.expr(e)]

    def map(self, results: Sequence[AffineExpr]) -> tuple[AffineMap, list[Value]]:
        return (
            AffineMap.get(len(self.dims), len(self.symbols), list(results)),
            [*self.dims, *self.symbols],
        )


def _is_loop_iv(value: Value) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    owner = value.owner.parent_op
    return owner is not None and owner.name in ("affine.for", "affine.parallel")


def _conditions(e: isl.AstExpr, into: _Affine) -> tuple[list[AffineExpr], list[bool]]:
    """A conjunction of comparisons as ``expr >= 0`` / ``expr == 0`` constraints."""
    if e.get_type() != isl.ast_expr_type.op:
        raise CodegenError(f"condition '{e.to_C_str()}' is not a comparison")
    op = e.get_op_type()
    args = [e.get_op_arg(k) for k in range(e.get_op_n_arg())]
    if op in (_op.and_, _op.and_then):
        exprs, eqs = [], []
        for a in args:
            x, q = _conditions(a, into)
            exprs += x
            eqs += q
        return exprs, eqs
    if op in (_op.or_, _op.or_else):
        raise CodegenError(f"disjunctive condition '{e.to_C_str()}'")
    if op not in (_op.le, _op.lt, _op.ge, _op.gt, _op.eq):
        raise CodegenError(f"condition '{e.to_C_str()}' is not a comparison")
    lhs, rhs = into.expr(args[0]), into.expr(args[1])
    if op == _op.le:
        return [rhs - lhs], [False]
    if op == _op.lt:
        return [rhs - lhs - 1], [False]
    if op == _op.ge:
        return [lhs - rhs], [False]
    if op == _op.gt:
        return [lhs - rhs - 1], [False]
    return [lhs - rhs], [True]


def _for(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    iterator = node.for_get_iterator().get_id().get_name()
    inc = node.for_get_inc()
    if inc.get_type() != isl.ast_expr_type.int:
        raise CodegenError(f"loop stride '{inc.to_C_str()}' is not a constant")
    step = inc.get_val().to_python()
    lower = _Affine(env)
    lb_map, lb_operands = lower.map(lower.terms(node.for_get_init(), _op.max))
    cond = node.for_get_cond()
    if cond.get_type() != isl.ast_expr_type.op or cond.get_op_type() not in (_op.le, _op.lt):
        raise CodegenError(f"loop condition '{cond.to_C_str()}' is not an upper bound")
    bound_of = cond.get_op_arg(0)
    if bound_of.get_type() != isl.ast_expr_type.id or bound_of.get_id().get_name() != iterator:
        raise CodegenError(f"loop condition '{cond.to_C_str()}' does not bound '{iterator}'")
    upper = _Affine(env)
    ubs = upper.terms(cond.get_op_arg(1), _op.min)
    if cond.get_op_type() == _op.le:
        ubs = [u + 1 for u in ubs]
    ub_map, ub_operands = upper.map(ubs)
    loop = affine_for(lb_map, lb_operands, ub_map, ub_operands, step)
    _insert(block, before, loop)
    body = loop.regions[0].blocks[0]
    _node(
        node.for_get_body(),
        env.extended(iterator, body.arguments[0]),
        body,
        body.operations[-1],
        emit,
    )


def _if(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    into = _Affine(env)
    exprs, eqs = _conditions(node.if_get_cond(), into)
    condition = IntegerSet.get(len(into.dims), len(into.symbols), exprs, eqs)
    has_else = bool(node.if_has_else_node())
    op = affine_if(condition, [*into.dims, *into.symbols], with_else=has_else)
    _insert(block, before, op)
    then_block = op.regions[0].blocks[0]
    _node(node.if_get_then_node(), env, then_block, then_block.operations[-1], emit)
    if has_else:
        else_block = op.regions[1].blocks[0]
        _node(node.if_get_else_node(), env, else_block, else_block.operations[-1], emit)


def _user(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    call = node.user_get_expr()
    if call.get_type() != isl.ast_expr_type.op or call.get_op_type() != _op.call:
        raise CodegenError(f"statement '{call.to_C_str()}' is not a call")
    name = call.get_op_arg(0).get_id().get_name()
    values = []
    for k in range(1, call.get_op_n_arg()):
        arg = call.get_op_arg(k)
        if arg.get_type() == isl.ast_expr_type.id and arg.get_id().get_name() in env.ivs:
            values.append(env.ivs[arg.get_id().get_name()])
            continue
        into = _Affine(env)
        m, operands = into.map([into.expr(arg)])
        apply = affine_apply(m, operands)
        _insert(block, before, apply)
        values.append(apply.results[0])
    emit(name, values, block, before)


def _node(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    kind = node.get_type()
    if kind == isl.ast_node_type.for_:
        _for(node, env, block, before, emit)
    elif kind == isl.ast_node_type.if_:
        _if(node, env, block, before, emit)
    elif kind == isl.ast_node_type.block:
        children = node.block_get_children()
        for k in range(children.n_ast_node()):
            _node(children.get_at(k), env, block, before, emit)
    elif kind == isl.ast_node_type.mark:
        _node(node.mark_get_node(), env, block, before, emit)
    elif kind == isl.ast_node_type.user:
        _user(node, env, block, before, emit)
    else:
        raise CodegenError(f"AST node of kind {kind} is not supported")


def _insert(block: Block, before: Operation | None, op: Operation) -> None:
    if before is None:
        block.append(op)
    else:
        block.insert_before(before, op)


def generate(
    schedule: isl.UnionMap | isl.Map,
    params: Mapping[str, Value],
    block: Block,
    before: Operation | None,
    emit: Emit,
    context: isl.Set | None = None,
) -> None:
    """Emit the loops that run ``schedule``'s instances in its order into ``block`` (before
    ``before``, or at the end). ``params`` gives the value of each ISL parameter;
    ``context`` what is known about them."""
    umap = schedule if isinstance(schedule, isl.UnionMap) else isl.UnionMap.from_map(schedule)
    ctx = isl_context()
    known = context if context is not None else isl.Set.universe(isl.Space.params_alloc(ctx, 0))
    build = isl.AstBuild.from_context(known)
    _node(build.node_from_schedule_map(umap), _Env({}, params), block, before, emit)


# A new order of a band's instances, named for transforms/ (which does not import islpy).
Order = isl.Map


def band_schedule(band: Sequence[Operation], new_order: Order) -> tuple[isl.Map, BandInstances]:
    """The schedule that runs the instances of a perfect band in ``new_order``, with the
    band's instances (IVs, parameters and what is known about them, for :func:`generate`).

    ``new_order`` maps the band's instances ``{ S[ivs] -> [t0, ...] }`` (dims in band order,
    any tuple name) to their new position; it must be injective on the band. Raises
    :class:`CodegenError` when the iteration space is not exact or the order runs two
    iterations at the same time."""
    try:
        instances = band_instances(band)
    except ModelError as e:
        raise CodegenError(str(e)) from e
    if not instances.exact:
        raise CodegenError("the iteration space is not affine: " + "; ".join(instances.reasons))
    schedule = new_order.set_tuple_name(isl.dim_type.in_, instances.name)
    schedule = schedule.intersect_domain(instances.domain)
    if not schedule.is_injective():
        raise CodegenError("the new order runs two iterations at the same time")
    return schedule, instances
