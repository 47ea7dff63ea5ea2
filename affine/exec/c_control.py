"""C for control flow: affine and scf loops and conditionals, ``affine.parallel`` (OpenMP
on the outermost one), index arithmetic of affine maps and calls.

Invariant: loop-carried values are mutable C variables assigned from the yielded values
at the end of each iteration (in one step when several are carried).
"""

from __future__ import annotations

from collections.abc import Sequence

from affine.dialects.affine_dialect import ForOp, IfOp, ParallelOp, index_op_maps
from affine.exec.c_emitter import FunctionEmitter, c_op
from affine.exec.c_scalar import (
    binary_c,
    reduction_identity_c,
    signed_c,
    unsigned_c,
    value_ctype,
)
from affine.exec.elements import (
    ElementInfo,
    ExecutionError,
)
from affine.exec.memory import offset_symbol_values
from affine.exec.semantics import REDUCTION_OPS
from affine.ir.attributes import SymbolRefAttr
from affine.ir.core import Block, Operation, Value
from affine.ir.types import DYNAMIC, IndexType, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.integer_set import IntegerSet


@c_op("affine.apply", "affine.min", "affine.max")
def _c_apply(e: FunctionEmitter, op: Operation) -> None:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    combine = "min" if op.name == "affine.min" else "max"
    e.define(op.results[0], e.bound(m, op.operands, combine, op))
    if e.map_nonneg(m, op.operands, op.name == "affine.max"):
        e.nonneg.add(op.results[0])


@c_op("affine.delinearize_index", "affine.linearize_index")
def _c_index_op(e: FunctionEmitter, op: Operation) -> None:
    maps, operands = index_op_maps(op)
    for result, m in zip(op.results, maps, strict=True):
        e.define(result, e.bound(m, operands, "min", op))


def _loop(
    e: FunctionEmitter,
    op: Operation,
    iv: Value,
    lower: str,
    upper: str,
    step: str,
    nonneg: bool,
    body: Block,
    inits: Sequence[Value],
    iv_info: ElementInfo | None = None,
) -> None:
    carried = [e.declare(a, e.v(init), op.loc) for a, init in zip(body.arguments[1:], inits)]
    lb, ub = e.fresh("lb"), e.fresh("ub")
    e.line(f"const int64_t {lb} = {lower}, {ub} = {upper};")
    counter = e.fresh("i")
    e.line(f"for (int64_t {counter} = {lb}; {counter} < {ub}; {counter} += {step}) {{")
    e.depth += 1
    if iv_info is None or iv_info.kind == "index":
        e.names[iv] = counter
    else:
        name = e.fresh("iv")
        e.line(f"const {value_ctype(iv_info)} {name} = ({value_ctype(iv_info)}){counter};")
        e.names[iv] = name
    if nonneg:
        e.nonneg.add(iv)
    e.block_body(body, carried)
    e.depth -= 1
    e.line("}")
    for r, name in zip(op.results, carried):
        e.names[r] = name


@c_op("affine.for")
def _c_affine_for(e: FunctionEmitter, op: Operation) -> None:
    f = ForOp(op)
    lower = e.bound(f.lower_bound_map, f.lower_bound_operands, "max", op)
    upper = e.bound(f.upper_bound_map, f.upper_bound_operands, "min", op)
    nonneg = e.map_nonneg(f.lower_bound_map, f.lower_bound_operands, True)
    _loop(e, op, f.induction_var, lower, upper, str(f.step), nonneg, f.body, f.inits)


def _set_c(e: FunctionEmitter, s: IntegerSet, operands: Sequence[Value], op: Operation) -> str:
    code = e.program.error_code(op, "affine division by a non-positive symbol value")
    parts = [
        f"{e.affine(c, operands, s.num_dims, code)} {'==' if eq else '>='} 0"
        for c, eq in zip(s.constraints, s.eq_flags)
    ]
    return " && ".join(parts) or "1"


def _conditional(
    e: FunctionEmitter, op: Operation, cond: str, then_block: Block, else_block: Block | None
) -> None:
    results = [e.declare(r, None, op.loc) for r in op.results]
    e.line(f"if ({cond}) {{")
    e.depth += 1
    e.block_body(then_block, results)
    e.depth -= 1
    if else_block is not None:
        e.line("} else {")
        e.depth += 1
        e.block_body(else_block, results)
        e.depth -= 1
    e.line("}")


@c_op("affine.if")
def _c_affine_if(e: FunctionEmitter, op: Operation) -> None:
    view = IfOp(op)
    _conditional(
        e, op, _set_c(e, view.condition, op.operands, op), view.then_block, view.else_block
    )


@c_op("affine.parallel")
def _c_affine_parallel(e: FunctionEmitter, op: Operation) -> None:
    par = ParallelOp(op)
    lm, um = par.lower_bounds_map, par.upper_bounds_map
    bounds = []
    lstart = ustart = 0
    for lsize, usize, step in zip(par.lower_bounds_groups, par.upper_bounds_groups, par.steps):
        lsub = AffineMap.get(lm.num_dims, lm.num_symbols, lm.results[lstart : lstart + lsize])
        usub = AffineMap.get(um.num_dims, um.num_symbols, um.results[ustart : ustart + usize])
        lo, hi = e.fresh("lb"), e.fresh("ub")
        e.line(f"const int64_t {lo} = {e.bound(lsub, par.lower_bounds_operands, 'max', op)};")
        e.line(f"const int64_t {hi} = {e.bound(usub, par.upper_bounds_operands, 'min', op)};")
        bounds.append((lo, hi, step, e.map_nonneg(lsub, par.lower_bounds_operands, True)))
        lstart += lsize
        ustart += usize
    kinds = par.reductions
    if "assign" in kinds:
        raise ExecutionError(
            "'affine.parallel' reduction \"assign\" has no neutral element and cannot be compiled",
            op.loc,
        )
    accs = [
        e.declare(r, reduction_identity_c(k, e.info(r, op.loc)), op.loc)
        for k, r in zip(kinds, op.results)
    ]
    use_omp = (
        e.program.openmp
        and e.parallel_depth == 0
        and not e.multi_block
        and bool(bounds)
        and not e.program.checks_inside(op)
    )
    if use_omp:
        clauses = []
        for k, r, acc in zip(kinds, op.results, accs):
            clauses.append(f"reduction({e.program.reduction(k, r.type, op.loc)}:{acc})")
        e.lines.append(f"#pragma omp parallel for schedule(static) {' '.join(clauses)}".rstrip())
        e.program.used_openmp = True
    for iv, (lo, hi, step, nonneg) in zip(par.induction_vars, bounds):
        name = e.fresh("i")
        e.line(f"for (int64_t {name} = {lo}; {name} < {hi}; {name} += {step}) {{")
        e.depth += 1
        e.names[iv] = name
        if nonneg:
            e.nonneg.add(iv)
    e.parallel_depth += 1
    e.ops(par.body)
    e.parallel_depth -= 1
    terminator = par.body.operations[-1]
    for k, r, acc, v in zip(kinds, op.results, accs, terminator.operands):
        info = e.info(r, op.loc)
        e.line(f"{acc} = {binary_c(REDUCTION_OPS[k], acc, e.v(v), info, 0)};")
    for _ in bounds:
        e.depth -= 1
        e.line("}")


@c_op("scf.for")
def _c_scf_for(e: FunctionEmitter, op: Operation) -> None:
    lb, ub, step = op.operands[:3]
    info = e.info(lb, op.loc)
    code = e.program.error_code(op, "loop step is not positive")
    unsigned = "unsignedCmp" in op.attributes or "unsignedCmp" in op.properties
    view = unsigned_c if unsigned else signed_c
    step_name = e.fresh("st")
    e.line(f"const int64_t {step_name} = {view(e.v(step), info)};")
    e.line(f"if ({step_name} <= 0) pa_fail({code});")
    nonneg = lb in e.nonneg or unsigned
    body = op.regions[0].blocks[0]
    iv_info = None if isinstance(lb.type, IndexType) else info
    _loop(
        e,
        op,
        body.arguments[0],
        view(e.v(lb), info),
        f"({step_name} <= 0 ? {view(e.v(lb), info)} : {view(e.v(ub), info)})",
        step_name,
        nonneg,
        body,
        op.operands[3:],
        iv_info,
    )


@c_op("scf.if")
def _c_scf_if(e: FunctionEmitter, op: Operation) -> None:
    else_block = op.regions[1].blocks[0] if op.regions[1].blocks else None
    _conditional(e, op, e.v(op.operands[0]), op.regions[0].blocks[0], else_block)


@c_op("scf.execute_region")
def _c_scf_execute_region(e: FunctionEmitter, op: Operation) -> None:
    """The region's blocks inline in a C block; each ``scf.yield`` assigns the results and
    leaves (by ``goto`` past the region when it has several blocks)."""
    results = [e.declare(r, None, op.loc) for r in op.results]
    blocks = op.regions[0].blocks
    e.line("{")
    e.depth += 1
    if len(blocks) == 1:
        e.block_body(blocks[0], results)
    else:
        labels = {id(b): e.fresh("region_bb") for b in blocks}
        done = e.fresh("region_done")
        for block in blocks[1:]:
            for a in block.arguments:
                e.declare(a)
        for block in blocks:
            e.line(f"{labels[id(block)]}:;")
            e.ops(block, labels)
            if block.operations and block.operations[-1].name == "scf.yield":
                e.block_yield(block, results)
                e.line(f"goto {done};")
        e.line(f"{done}:;")
    e.depth -= 1
    e.line("}")


@c_op("scf.while")
def _c_scf_while(e: FunctionEmitter, op: Operation) -> None:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = [e.declare(a, e.v(v), op.loc) for a, v in zip(before.arguments, op.operands)]
    results = [e.declare(r, None, op.loc) for r in op.results]
    e.line("for (;;) {")
    e.depth += 1
    e.ops(before)
    condition = before.operations[-1]
    values = condition.operands[1:]
    e.line(f"if (!{e.v(condition.operands[0])}) {{")
    e.depth += 1
    if results:
        e.assign(results, [e.v(v) for v in values], [e.ctype_of(v.type) for v in values])
    e.line("break;")
    e.depth -= 1
    e.line("}")
    for a, v in zip(after.arguments, values):
        e.define(a, e.v(v), op.loc)
    e.block_body(after, carried)
    e.depth -= 1
    e.line("}")


@c_op("func.call")
def _c_call(e: FunctionEmitter, op: Operation) -> None:
    callee = op.properties["callee"]
    assert isinstance(callee, SymbolRefAttr)
    target = e.program.lookup(callee.leaf, op.loc)
    cname = e.program.function(target)
    args = []
    for v in op.operands:
        if isinstance(v.type, MemRefType):
            mem = e.mem(v)
            args.append(mem.data)
            args.extend(str(s) for s, d in zip(mem.sizes, mem.type.shape) if d == DYNAMIC)
            args.extend(str(v) for v in offset_symbol_values(mem.type, mem.symbols, mem.pstrides))
        else:
            args.append(e.v(v))
    results = [e.declare(r, None, op.loc) for r in op.results]
    args.extend(f"&{r}" for r in results)
    e.line(f"{cname}({', '.join(args)});")
