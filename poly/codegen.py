"""Loops from schedules: ISL's AST generator turned into ``affine.for`` / ``affine.if``.

:func:`generate` takes a schedule ``{ S[ivs] -> [t0, t1, ...] }`` for the instances of
statements, builds ISL's AST for it, and emits the loops into a block: a ``for`` becomes
an ``affine.for`` whose bounds are ``max``/``min`` maps over the enclosing new IVs and the
parameters, an ``if`` an ``affine.if`` on the conjunction of its conditions, and each
statement instance a call of the ``emit`` callback with, for every original IV, an
``affine.apply`` computing it from the new IVs. ISL's expressions become affine
expressions exactly (``floor``, ``mod`` and ``max``/``min`` included; a ``select`` and a
disjunctive condition become ``affine.if``/``else`` around copies of the code); an AST this
module cannot express (a non-constant stride, a product of variables) raises
:class:`CodegenError`, so the caller can refuse the transformation with that reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import islpy as isl

from affine.dialects.builders import (
    affine_apply,
    affine_for,
    affine_if,
    affine_parallel,
    constant_index,
)
from affine.errors import PolyError
from affine.ir.core import Block, BlockArgument, Operation, Value
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim, symbol
from affine.math.integer_set import IntegerSet
from poly.context import isl_context
from poly.model import BandInstances, ModelError, band_instances
from poly.space import ast_iterators, in_toolkit_context, parallel_mark_depth, param_names


class CodegenError(PolyError):
    """An AST the affine dialect cannot express."""


Emit = Callable[[str, list[Value], Block, Operation | None], None]
"""``emit(statement name, original IV values, block, insert before)``."""

OnMark = Callable[[str, list[Operation]], None]
"""``on_mark(mark name, the ops emitted under the mark)``, called after emitting them."""

_op = isl.ast_expr_op_type
# islpy's type stubs leave out the enum members whose names end in "_"; looked up by name.
_OP_AND = isl.ast_expr_op_type["and_"]
_OP_OR = isl.ast_expr_op_type["or_"]
_NODE_FOR = isl.ast_node_type["for_"]
_NODE_IF = isl.ast_node_type["if_"]


@dataclass
class _Env:
    """The values that AST names stand for: new loop IVs, the iterators of loops of one
    iteration (their value, an AST expression), parameters; the iterator of each schedule
    depth, the iterator of the next loop if that loop is parallel, and what to do after
    emitting a mark."""

    ivs: dict[str, Value] = field(default_factory=dict)
    params: Mapping[str, Value] = field(default_factory=dict)
    fixed: dict[str, isl.AstExpr] = field(default_factory=dict)
    iterators: Sequence[str] = ()
    parallel: str | None = None
    on_mark: OnMark | None = None
    choices: dict[str, bool] = field(default_factory=dict)  # the branch of each select

    def extended(self, name: str, value: Value) -> _Env:
        return replace(self, ivs={**self.ivs, name: value}, parallel=None)

    def fixing(self, name: str, value: isl.AstExpr) -> _Env:
        return replace(self, fixed={**self.fixed, name: value}, parallel=None)


class _Choice(Exception):
    """An expression holds a ``select`` whose branch is not chosen yet."""

    def __init__(self, select: isl.AstExpr) -> None:
        super().__init__(select.to_C_str())
        self.select = select


class _Affine:
    """Collects the values an AST expression uses, as dims (IVs) and symbols (parameters)."""

    def __init__(self, env: _Env) -> None:
        self.env = env
        self.dims: list[Value] = []
        self.symbols: list[Value] = []

    def _leaf(self, name: str) -> AffineExpr:
        if name in self.env.fixed:
            return self.expr(self.env.fixed[name])
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
        if op == _op.select:
            chosen = self.env.choices.get(e.to_C_str())
            if chosen is None:
                raise _Choice(e)
            return self.expr(args[1] if chosen else args[2])
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
    if op in (_OP_AND, _op.and_then):
        exprs, eqs = [], []
        for a in args:
            x, q = _conditions(a, into)
            exprs += x
            eqs += q
        return exprs, eqs
    if op in (_OP_OR, _op.or_else):
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
    init = node.for_get_init()
    if node.for_is_degenerate() and not (
        init.get_type() == isl.ast_expr_type.op and init.get_op_type() == _op.max
    ):
        # one iteration: the iterator stands for its value
        _node(node.for_get_body(), env.fixing(iterator, init), block, before, emit)
        return
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
    if env.parallel == iterator:
        loop = affine_parallel(lb_map, lb_operands, ub_map, ub_operands, step)
    else:
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


def _disjuncts(e: isl.AstExpr) -> list[isl.AstExpr]:
    if e.get_type() == isl.ast_expr_type.op and e.get_op_type() in (_OP_OR, _op.or_else):
        return [d for k in range(e.get_op_n_arg()) for d in _disjuncts(e.get_op_arg(k))]
    return [e]


def _condition_set(e: isl.AstExpr, env: _Env) -> tuple[IntegerSet, list[Value]]:
    into = _Affine(env)
    exprs, eqs = _conditions(e, into)
    return IntegerSet.get(len(into.dims), len(into.symbols), exprs, eqs), [
        *into.dims,
        *into.symbols,
    ]


def _if(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    """``if (a || b) T else E`` becomes ``if a {T} else {if b {T} else {E}}``."""
    else_node = node.if_get_else_node() if node.if_has_else_node() else None
    conditions = [_condition_set(d, env) for d in _disjuncts(node.if_get_cond())]
    for k, (condition, operands) in enumerate(conditions):
        has_else = k < len(conditions) - 1 or else_node is not None
        op = affine_if(condition, operands, with_else=has_else)
        _insert(block, before, op)
        then_block = op.regions[0].blocks[0]
        _node(node.if_get_then_node(), env, then_block, then_block.operations[-1], emit)
        if not has_else:
            return
        block = op.regions[1].blocks[0]
        before = block.operations[-1]
    assert else_node is not None
    _node(else_node, env, block, before, emit)


def _user(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    call = node.user_get_expr()
    if call.get_type() != isl.ast_expr_type.op or call.get_op_type() != _op.call:
        raise CodegenError(f"statement '{call.to_C_str()}' is not a call")
    name = call.get_op_arg(0).get_id().get_name()
    args: list[Value | tuple[AffineMap, list[Value]]] = []
    for k in range(1, call.get_op_n_arg()):
        arg = call.get_op_arg(k)
        if arg.get_type() == isl.ast_expr_type.id and arg.get_id().get_name() in env.ivs:
            args.append(env.ivs[arg.get_id().get_name()])
            continue
        into = _Affine(env)
        args.append(into.map([into.expr(arg)]))
    values = []
    for a in args:
        if isinstance(a, Value):
            values.append(a)
            continue
        m, operands = a
        result = m.results[0]
        op = constant_index(result.value) if result.is_constant else affine_apply(m, operands)
        _insert(block, before, op)
        values.append(op.results[0])
    emit(name, values, block, before)


def _node(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    """Emit ``node``. Its own expressions are computed before anything is inserted, so a
    ``select`` among them (``c ? a : b``) becomes ``affine.if c`` around a copy of the node
    taking ``a`` and an ``else`` around one taking ``b``."""
    try:
        _dispatch(node, env, block, before, emit)
    except _Choice as choice:
        select = choice.select
        try:
            condition, operands = _condition_set(select.get_op_arg(0), env)
        except _Choice as nested:
            raise CodegenError(f"nested selects in '{nested}'") from None
        op = affine_if(condition, operands, with_else=True)
        _insert(block, before, op)
        key = select.to_C_str()
        for region, chosen in zip(op.regions, (True, False)):
            inner = region.blocks[0]
            choices = {**env.choices, key: chosen}
            _node(node, replace(env, choices=choices), inner, inner.operations[-1], emit)


def _dispatch(
    node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit
) -> None:
    kind = node.get_type()
    if kind == _NODE_FOR:
        _for(node, env, block, before, emit)
    elif kind == _NODE_IF:
        _if(node, env, block, before, emit)
    elif kind == isl.ast_node_type.block:
        children = node.block_get_children()
        for k in range(children.n_ast_node()):
            _node(children.get_at(k), env, block, before, emit)
    elif kind == isl.ast_node_type.mark:
        _mark(node, env, block, before, emit)
    elif kind == isl.ast_node_type.user:
        _user(node, env, block, before, emit)
    else:
        raise CodegenError(f"AST node of kind {kind} is not supported")


def _mark(node: isl.AstNode, env: _Env, block: Block, before: Operation | None, emit: Emit) -> None:
    """A :func:`poly.space.parallel_mark` makes the loops of its depth right below it
    ``affine.parallel`` (none when ISL left that loop out, as it does with a loop of one
    iteration); other marks are handed to ``env.on_mark`` with the ops emitted below them."""
    name = node.mark_get_id().get_name()
    depth = parallel_mark_depth(name)
    if depth is not None:
        if depth >= len(env.iterators):
            raise CodegenError(f"mark '{name}' below the schedule's {len(env.iterators)} loops")
        parallel = replace(env, parallel=env.iterators[depth])
        _node(node.mark_get_node(), parallel, block, before, emit)
        return
    start = len(block.operations) if before is None else block.index_of(before)
    count = len(block.operations)
    _node(node.mark_get_node(), env, block, before, emit)
    if env.on_mark is not None:
        env.on_mark(name, block.operations[start : start + len(block.operations) - count])


def _insert(block: Block, before: Operation | None, op: Operation) -> None:
    if before is None:
        block.append(op)
    else:
        block.insert_before(before, op)


def generate(
    schedule: isl.UnionMap | isl.Map | isl.Schedule,
    params: Mapping[str, Value],
    block: Block,
    before: Operation | None,
    emit: Emit,
    context: isl.Set | None = None,
    on_mark: OnMark | None = None,
) -> None:
    """Emit the loops that run ``schedule``'s instances in its order into ``block`` (before
    ``before``, or at the end). ``schedule`` is a map or a schedule tree; ``params`` gives
    the value of each ISL parameter, ``context`` what is known about them; ``on_mark`` is
    called for the marks of a tree (see :func:`_mark`)."""
    ctx = isl_context()
    known = context if context is not None else isl.Set.universe(isl.Space.params_alloc(ctx, 0))
    if isinstance(schedule, isl.Map):
        schedule = isl.UnionMap.from_map(schedule)
    times = schedule.get_map() if isinstance(schedule, isl.Schedule) else schedule
    iterators = _iterators(times, known)
    ids = isl.IdList.alloc(ctx, len(iterators))
    for name in iterators:
        ids = ids.add(isl.Id(name, context=ctx))
    build = isl.AstBuild.from_context(known).set_iterators(ids)
    if isinstance(schedule, isl.Schedule):
        ast = build.node_from_schedule(schedule)
    else:
        ast = build.node_from_schedule_map(schedule)
    env = _Env({}, params, iterators=iterators, on_mark=on_mark)
    _node(ast, env, block, before, emit)


def _iterators(times: isl.UnionMap, known: isl.Set) -> list[str]:
    """The iterator of each schedule depth of ``times``, none named as a parameter of
    ``times`` or ``known`` (:func:`poly.space.ast_iterators`)."""
    maps = times.get_map_list()
    depth = max((maps.get_at(k).dim(isl.dim_type.out) for k in range(maps.n_map())), default=0)
    return ast_iterators(depth, [*param_names(times.get_space()), *param_names(known)])


# A new order of a band's instances, named for transforms/ (which does not import islpy).
Order = isl.Map


def band_schedule(band: Sequence[Operation], new_order: Order) -> tuple[isl.Map, BandInstances]:
    """The schedule that runs the instances of a perfect band in ``new_order``, with the
    band's instances (IVs, parameters and what is known about them, for :func:`generate`).

    ``new_order`` maps the band's instances ``{ S[ivs] -> [t0, ...] }`` (dims in band order,
    any tuple name, from any islpy context) to their new position; it must be injective on
    the band. Raises :class:`CodegenError` when the iteration space is not exact or the order
    runs two iterations at the same time."""
    try:
        instances = band_instances(band)
    except ModelError as e:
        raise CodegenError(str(e)) from e
    if not instances.exact:
        raise CodegenError("the iteration space is not affine: " + "; ".join(instances.reasons))
    schedule = in_toolkit_context(new_order).set_tuple_name(isl.dim_type.in_, instances.name)
    schedule = schedule.intersect_domain(instances.domain)
    if not schedule.is_injective():
        raise CodegenError("the new order runs two iterations at the same time")
    return schedule, instances
