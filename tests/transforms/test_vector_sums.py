"""``--affine-vector-sums``: a loop carrying float sums of stride-1 loads folds W iterations
into each sum with an ordered ``vector.reduction <add>``; results are bit for bit the
source's (interpreter, C, and mlir-runner through LLVM's ordered ``vector.reduce.fadd``),
and loops whose sums or loads do not have that shape are left alone with the reason."""

from __future__ import annotations

import random

import pytest
from conftest import run_mlir_opt

import affine
from affine.exec.mlir_runner import run_mlir_runner
from affine.ir.core import Module
from affine.ops import ForOp
from transforms.auto_scheduler import auto_schedule
from transforms.machine import detect
from transforms.vector_sums import SumLoop, plan_vector_sums, vector_sums, vector_sums_function

# y[i + r] += sum_j A[i + r][j] * x[j] for r = 0, 1, 2: three rows of a matrix-vector
# product side by side, as the register tiler jams them, over j in [lo, hi)
ROWS = """
func.func @rows(%A: memref<9x{n}xf32>, %x: memref<{n}xf32>, %y: memref<9xf32>) {{
  %h = arith.constant 0.5 : f32
  affine.for %i = 0 to 9 step 3 {{
    %y0 = affine.load %y[%i] : memref<9xf32>
    %y1 = affine.load %y[%i + 1] : memref<9xf32>
    %y2 = affine.load %y[%i + 2] : memref<9xf32>
    %s:3 = affine.for %j = {lo} to {hi} iter_args(%a0 = %y0, %a1 = %y1, %a2 = %y2) -> (f32, f32, f32) {{
      %xj = affine.load %x[%j] : memref<{n}xf32>
      %r0 = affine.load %A[%i, %j] : memref<9x{n}xf32>
      %p0 = arith.mulf %r0, %xj : f32
      %n0 = arith.addf %a0, %p0 : f32
      %r1 = affine.load %A[%i + 1, %j] : memref<9x{n}xf32>
      %p1 = arith.mulf %r1, %xj : f32
      %q1 = arith.mulf %p1, %h : f32
      %n1 = arith.addf %q1, %a1 : f32
      %r2 = affine.load %A[%i + 2, %j] : memref<9x{n}xf32>
      %n2 = arith.addf %a2, %r2 : f32
      affine.yield %n0, %n1, %n2 : f32, f32, f32
    }}
    affine.store %s#0, %y[%i] : memref<9xf32>
    affine.store %s#1, %y[%i + 1] : memref<9xf32>
    affine.store %s#2, %y[%i + 2] : memref<9xf32>
  }}
  return
}}
"""


def rows(n: int, lo: str = "0", hi: str = "", swapped: bool = False) -> Module:
    text = ROWS.format(n=n, lo=lo, hi=hi or str(n))
    if swapped:  # row 1's sum computed before row 0's: body order is not iter_args order
        lines = text.splitlines()
        start = next(k for k, x in enumerate(lines) if "%r0 = " in x)
        row0, row1 = lines[start : start + 3], lines[start + 3 : start + 7]
        lines[start : start + 7] = row1 + row0
        text = "\n".join(lines)
    return affine.parse(text, "rows.mlir")


def inner(module: Module):
    return next(op for op in module.walk() if op.name == "affine.for" and op.results)


@pytest.mark.parametrize("swapped", [False, True])
@pytest.mark.parametrize("backend", ["interp", "c"])
@pytest.mark.parametrize("n", [3, 4, 8, 13, 40])
def test_sums_folded_in_order_are_the_source_s_bit_for_bit(
    n: int, backend: str, swapped: bool
) -> None:
    # 4 lanes: no full group, exactly one, two with none left, groups and a remainder
    module = rows(n, swapped=swapped)
    result = module.clone()
    plan = plan_vector_sums(inner(result))
    assert isinstance(plan, SumLoop), plan
    vector_sums(plan, 4)
    text = affine.print_module(result)
    assert text.count("vector.reduction <add>") == 3, text
    outcome = affine.check_equivalent(module, result, backend=backend, rtol=0.0)
    assert outcome, (outcome, text)


# (lower, upper) bounds of j that move with the outer loop's i in 0, 3, 6
MOVING = [
    ("affine_map<(d0) -> (d0)>(%i)", "affine_map<(d0) -> (d0 + 29)>(%i)"),  # triangular
    # empty at i = 6 (12 to 7): the groups of 4 would end at 12 - 8 = 4, below the start,
    # and the iterations left must not run from there
    ("affine_map<(d0) -> (d0 * 2)>(%i)", "7"),
]


@pytest.mark.parametrize(("lo", "hi"), MOVING)
def test_bounds_that_move_with_an_outer_loop_keep_their_remainder(lo: str, hi: str) -> None:
    module = rows(40, lo, hi)
    result = module.clone()
    plan = plan_vector_sums(inner(result))
    assert isinstance(plan, SumLoop), plan
    vector_sums(plan, 4)
    assert affine.check_equivalent(module, result, backend="c", rtol=0.0)


@pytest.mark.mlir
def test_the_ordered_reduction_runs_bit_for_bit_under_llvm(mlir_opt: str, mlir_runner: str) -> None:
    # LLVM's vector.reduce.fadd without reassoc adds lane after lane: what the source does,
    # so the checksums of y under mlir-runner -O3 are the source's exactly
    module = rows(203)
    result = module.clone()
    done = vector_sums_function(result.functions()[0], detect().override(vector_bits=512))
    assert done == ["3 sums of affine.for at rows.mlir:8:12 folded in order, 16 lanes at a time"]
    assert run_mlir_opt(mlir_opt, affine.print_module(result)).returncode == 0
    source = run_mlir_runner(module.functions()[0], mlir_opt, mlir_runner)
    summed = run_mlir_runner(result.functions()[0], mlir_opt, mlir_runner)
    assert summed.checksums == source.checksums


# (what is changed in the loop, why it is left alone)
REFUSED = [
    ("step 2", "its step is 2, not 1"),
    ("f16", "iter_arg #0 is no f32 or f64 sum"),  # half precision: not measured here
    ("%n2 = arith.mulf %a2, %r2 : f32", "iter_arg #2 is no f32 or f64 sum"),
    ("%r0 = affine.load %A[%j, %i]", "does not move one element along the loop"),
    ("%r0 = affine.load %A[%i, 2 * %j]", "does not move one element along the loop"),
    ("%p0 = arith.mulf %r0, %a1 : f32", "iter_arg #0 is no f32 or f64 sum"),  # a1 in a0's
    ("%p0 = math.exp %r0 : f32", "(math.exp) is no elementwise float op"),
]


@pytest.mark.parametrize(("change", "why"), REFUSED)
def test_loops_of_another_shape_are_left_alone_with_the_reason(change: str, why: str) -> None:
    text = ROWS.format(n=16, lo="0", hi="16")
    if change == "step 2":
        text = text.replace("to 16 iter_args", "to 16 step 2 iter_args")
    elif change == "f16":
        text = text.replace("f32", "f16")
    else:
        name = change.split(" = ")[0]
        line = next(x for x in text.splitlines() if x.strip().startswith(f"{name} = "))
        text = text.replace(
            line.strip(), change + ("" if ":" in change else line[line.index(" :") :])
        )
    if "%A[%j, %i]" in text:
        text = text.replace("memref<9x16xf32>", "memref<16x16xf32>")
    plan = plan_vector_sums(inner(affine.parse(text, "rows.mlir")))
    assert not isinstance(plan, SumLoop)
    assert why in plan.reason, plan.reason


def test_a_matrix_vector_product_s_jammed_rows_fold_their_sums_in_order() -> None:
    # y[i] += A[i][j] * x[j] at 64 x 200: the register tiler's 8 rows of scalar sums, which
    # LLVM's SLP vectoriser packed into one vector gathered lane by lane (2000^2: 0.58x),
    # folded 16 lanes at a time (2.9x)
    text = """
func.func @gemv(%A: memref<64x200xf32>, %x: memref<200xf32>, %y: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 200 {
      %a = affine.load %A[%i, %j] : memref<64x200xf32>
      %b = affine.load %x[%j] : memref<200xf32>
      %c = affine.load %y[%i] : memref<64xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %c, %p : f32
      affine.store %s, %y[%i] : memref<64xf32>
    }
  }
  return
}
"""
    module = affine.parse(text, "gemv.mlir")
    result = auto_schedule(module, vector_bits=512)
    (report,) = result.functions
    assert report.chosen.endswith("+regtile+sums"), report.chosen
    assert "8 sums of affine.for at gemv.mlir:4:5 folded in order, 16 lanes at a time" in (
        report.tiles
    )
    loops = [ForOp(op) for op in result.module.walk() if op.name == "affine.for" and op.results]
    assert any(f.step == 16 for f in loops)
    for backend in ("interp", "c"):
        assert affine.check_equivalent(module, result.module, backend=backend, rtol=0.0)


# x[i + r] += L[i + r][j] * y[j] for r = 0, 1 with j from 0 to i: the sums kept in memory, as
# chains side by side leave them (a triangular x += L y); at i = 0 the loop is empty and
# x[i - 1 + r], the variant's address, lies outside x
IN_MEMORY = """
func.func @trmv(%L: memref<12x12xf64>, %y: memref<12xf64>, %x: memref<12xf64>) {{
  affine.for %i = 0 to 12 step 2 {{
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {{
      %l0 = affine.load %L[%i, %j] : memref<12x12xf64>
      %v = affine.load %y[%j] : memref<12xf64>
      %p0 = arith.mulf %l0, %v : f64
      %x0 = affine.load %x[%i - {back}] : memref<12xf64>
      %s0 = arith.addf %x0, %p0 : f64
      affine.store %s0, %x[%i - {back}] : memref<12xf64>
      %r1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
      %l1 = affine.load %L[%r1, %j] : memref<12x12xf64>
      %p1 = arith.mulf %l1, %v : f64
      %x1 = affine.load %x[%r1 - {back}] : memref<12xf64>
      %s1 = arith.addf %p1, %x1 : f64
      affine.store %s1, %x[%r1 - {back}] : memref<12xf64>{extra}
    }}
  }}
  return
}}
"""


@pytest.mark.parametrize("back", [0, 1])
@pytest.mark.parametrize("backend", ["interp", "c"])
def test_sums_kept_in_memory_are_carried_then_folded_in_order(back: int, backend: str) -> None:
    module = affine.parse(IN_MEMORY.format(back=back, extra=""), "trmv.mlir")
    result = module.clone()
    done = vector_sums_function(result.functions()[0], detect().override(vector_bits=256))
    assert done == ["2 sums of affine.for at trmv.mlir:4:5 folded in order, 4 lanes at a time"]
    text = affine.print_module(result)
    assert "affine.if" in text  # the sums are loaded and stored only where the loop runs
    # the interpreter reports any access outside x: none at i = 0 with back = 1
    assert affine.check_equivalent(module, result, backend=backend, rtol=0.0)


def test_a_sum_whose_address_the_loop_also_reads_stays_in_memory() -> None:
    # a load of x[i] beside the sum's: carried in a register, the sum would not be what it
    # reads, so the loop is left as it is
    extra = """
      %again = affine.load %x[%i] : memref<12xf64>
      affine.store %again, %y[%j] : memref<12xf64>"""
    module = affine.parse(IN_MEMORY.format(back=0, extra=extra), "trmv.mlir")
    result = module.clone()
    assert vector_sums_function(result.functions()[0], detect()) == []
    assert affine.print_module(result) == affine.print_module(module)


def _random_sums_in_memory(seed: int) -> str:
    """Rows of sums kept in memory, ``y[R i + r] += A[R i + r][j] (op) x[j + c]``, some
    addresses through an ``affine.apply``, over ``j`` from 0, 1 or ``i`` to 40, ``i`` or
    ``i + 5`` (empty for some ``i``, and then, with ``back``, the sums' addresses lie below
    ``y``); now and then a load of a sum's address beside it, which keeps the loop as it is."""
    rng = random.Random(seed)
    rows, t = rng.randint(1, 4), rng.choice(["f32", "f64"])
    lo = rng.choice(["0", "1", "affine_map<(d0) -> (d0)>(%i)"])
    hi = rng.choice(["40", "affine_map<(d0) -> (d0)>(%i)", "affine_map<(d0) -> (d0 + 5)>(%i)"])
    back = rows if hi == "affine_map<(d0) -> (d0)>(%i)" and rng.random() < 0.5 else 0
    body = []
    for r in range(rows):
        address = f"%i * {rows} + {r - back}"
        if rng.random() < 0.5:
            body.append(f"%p{r} = affine.apply affine_map<(d0) -> (d0 * {rows} + {r - back})>(%i)")
            address = f"%p{r}"
        op = rng.choice(["arith.addf", "arith.subf", "arith.mulf"])
        pair = rng.choice([f"%c{r}, %e{r}", f"%e{r}, %c{r}"])
        body += [
            f"%a{r} = affine.load %A[%i * {rows} + {r}, %j] : memref<{rows * 10}x48x{t}>",
            f"%x{r} = affine.load %x[%j + {rng.randint(0, 3)}] : memref<48x{t}>",
            f"%e{r} = {op} %a{r}, %x{r} : {t}",
            f"%c{r} = affine.load %y[{address}] : memref<{rows * 10}x{t}>",
            f"%s{r} = arith.addf {pair} : {t}",
            f"affine.store %s{r}, %y[{address}] : memref<{rows * 10}x{t}>",
        ]
    if rng.random() < 0.2:
        body += [
            f"%z = affine.load %y[%i * {rows}] : memref<{rows * 10}x{t}>",
            f"affine.store %z, %w[%j] : memref<48x{t}>",
        ]
    lines = "\n".join("      " + line for line in body)
    return (
        f"func.func @k(%A: memref<{rows * 10}x48x{t}>, %x: memref<48x{t}>, "
        f"%y: memref<{rows * 10}x{t}>, %w: memref<48x{t}>) {{\n"
        f"  affine.for %i = 0 to 10 {{\n    affine.for %j = {lo} to {hi} {{\n{lines}\n"
        "    }\n  }\n  return\n}\n"
    )


@pytest.mark.parametrize("seed", range(16))
def test_random_sums_in_memory_fold_bit_for_bit(seed: int) -> None:
    module = affine.parse(_random_sums_in_memory(seed), "k.mlir")
    result = module.clone()
    vector_sums_function(result.functions()[0], detect().override(vector_bits=256))
    for backend in ("interp", "c"):
        outcome = affine.check_equivalent(module, result, backend=backend, rtol=0.0, seed=seed)
        assert outcome, (outcome, affine.print_module(result))


def test_sums_too_short_to_fold_are_said_to_be_carried() -> None:
    # 3 iterations of j against 4 lanes of f64: carried in iter_args, not folded
    text = IN_MEMORY.format(back=0, extra="").replace("to affine_map<(d0) -> (d0)>(%i)", "to 3")
    module = affine.parse(text, "trmv.mlir")
    result = module.clone()
    done = vector_sums_function(result.functions()[0], detect().override(vector_bits=256))
    assert done == ["2 sums of affine.for at trmv.mlir:4:5 carried in iter_args"]
    assert "vector.reduction" not in affine.print_module(result)
    assert affine.check_equivalent(module, result, backend="interp", rtol=0.0)
