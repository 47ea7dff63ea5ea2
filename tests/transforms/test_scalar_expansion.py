"""--affine-expand-iter-args: values carried in iter_args live in memory, one cell per
instance of the loops around; every corpus kernel that carries one computes the same in
both backends; what cannot be expanded says why; the loops around get their ranges from
interval arithmetic; mlir-opt 22 accepts the output; random nests with iter_args, expanded
and then transformed by random passes, compute the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_mlir_opt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nestgen import nests
from parametric import parametric
from test_pass_sequences import pass_configs
from test_passes import run_pass

import affine
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from affine.math.expr import print_expr
from affine.ops import ForOp
from transforms.scalar_expansion import iv_ranges

KERNELS = Path(__file__).parent.parent / "corpus" / "kernels"
CARRIERS = sorted(p.stem for p in KERNELS.glob("*.mlir") if "iter_args" in p.read_text())
# those whose sizes the corpus header names, and whose loops carry scalars
PARAMETRIC_CARRIERS = [
    k for k in CARRIERS if "// scale:" in (KERNELS / f"{k}.mlir").read_text() and "vector" not in k
]


def _parse(text: str, name: str = "t.mlir") -> Module:
    return affine.parse(text, name)


def _expanded(module: Module) -> tuple[Module, list[str]]:
    result, remarks = run_pass(module, "affine-expand-iter-args", "")
    return affine.parse(affine.print_module(result), "expanded.mlir"), remarks


@pytest.mark.parametrize("kernel", CARRIERS)
def test_corpus_kernels_compute_the_same_with_iter_args_in_memory(kernel: str) -> None:
    path = KERNELS / f"{kernel}.mlir"
    module = _parse(path.read_text(), str(path))
    expanded, remarks = _expanded(module)
    carriers = [op for op in module.walk() if op.name == "affine.for" and ForOp(op).iter_args]
    # each loop is expanded, or carries a vector (vector_ops' only loop)
    assert len(remarks) == len(carriers), remarks
    assert all("expanded into" in r or "not a scalar" in r for r in remarks), remarks
    assert "iter_args(" not in affine.print_module(expanded) or kernel.startswith("vector")
    for function in module.functions():
        if not (function.regions and function.regions[0].blocks):
            continue
        name = function.get_attr("sym_name").value
        for backend in ("interp", "c"):
            verdict = check_equivalent(
                module, expanded, backend=backend, f_entry=name, g_entry=name
            )
            assert verdict, (kernel, name, backend, verdict)


def test_symm_keeps_one_cell_per_row_and_column() -> None:
    # temp2 is carried across k for each (i, j): a 20 x 24 buffer indexed [i, j], zeroed
    # before the k loop, read and written in it, read after it
    module = _parse((KERNELS / "symm.mlir").read_text(), "symm.mlir")
    expanded, _ = _expanded(module)
    text = affine.print_module(expanded)
    assert "iter_args" not in text
    assert "memref.alloc() : memref<20x24xf32>" in text
    assert "memref.dealloc" in text
    assert text.count("%alloc[%arg3, %arg4]") == 4, text


@pytest.mark.parametrize("kernel", PARAMETRIC_CARRIERS)
def test_kernels_of_unknown_sizes_get_buffers_of_their_sizes(kernel: str) -> None:
    # the sizes as index arguments: every scalar iter_args is expanded, as in the kernel of
    # static sizes, into a buffer allocated with the sizes where loops up to them are around
    # it (memref.alloc(%n), affine.max with 1), and the kernel computes what the original
    # does at the corpus sizes
    import numpy as np

    from affine.exec.inputs import signature

    source = (KERNELS / f"{kernel}.mlir").read_text()
    text, sizes = parametric(source)
    module = _parse(text, f"{kernel}.mlir")
    expanded, remarks = _expanded(module)
    assert remarks and all("expanded into" in r or "not a scalar" in r for r in remarks), remarks
    printed = affine.print_module(expanded)
    static = affine.print_module(_expanded(_parse(source))[0])
    assert printed.count("memref.alloc") == static.count("memref.alloc"), printed
    if kernel == "ludcmp":  # w for each (i, j) of i < N, j < i and of j from i to N
        assert re.search(r"memref.alloc\((%\d+), \1\) : memref<\?x\?xf64>", printed), printed
        assert "affine_map<()[s0] -> (s0 - 1, 1)>" in printed, printed  # j < i < N
    rng = np.random.default_rng(0)
    arrays = [
        rng.uniform(-1, 1, t.shape).astype(np.float64 if "f64" in str(t) else np.float32)
        for t in signature(_parse(source).functions()[0])[0]
    ]
    verdict = check_equivalent(module, expanded, *arrays, *sizes, backend="c")
    assert verdict, (kernel, verdict)


# Each row: the loops (bounds over the ones before and the argument %n) and the range
# interval arithmetic gives each IV: j < i + 1 with i in 0..9 reaches 9; j from max(i, 3)
# is at least 3 (the largest least value of the max); k below min(j, 5) at most 4; i - 2 * j
# spans both ends; i below %n reaches s0 - 1 (%n is s0), and j from i to %n + 2 starts at
# i's least value; a mod of a symbolic range spans its divisor's.
RANGES = [
    (
        "affine.for %i = 0 to 10 { affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {X} }",
        [("0", "9"), ("0", "9")],
    ),
    (
        "affine.for %i = 0 to 10 { affine.for %j = max affine_map<(d0) -> (d0, 3)>(%i) to 12 {X} }",
        [("0", "9"), ("3", "11")],
    ),
    (
        "affine.for %j = 0 to 8 { affine.for %k = 0 to min affine_map<(d0) -> (d0, 5)>(%j) {X} }",
        [("0", "7"), ("0", "4")],
    ),
    (
        "affine.for %i = 0 to 4 { affine.for %j = 0 to 3 { affine.for %k = affine_map<(d0, d1) -> (d0 - d1 * 2)>(%i, %j) to 10 {X} } }",
        [("0", "3"), ("0", "2"), ("-4", "9")],
    ),
    (
        "affine.for %i = 0 to %n { affine.for %j = affine_map<(d0) -> (d0)>(%i) to affine_map<()[s0] -> (s0 + 2)>()[%n] {X} }",
        [("0", "s0 - 1"), ("0", "s0 + 1")],
    ),
    (
        "affine.for %i = 1 to %n { affine.for %j = 0 to affine_map<(d0) -> (d0 mod 4 + d0 floordiv 2)>(%i) {X} }",
        [("1", "s0 - 1"), ("0", "(s0 - 1) floordiv 2 + 2")],
    ),
]


@pytest.mark.parametrize(("nest", "expected"), RANGES, ids=range(len(RANGES)))
def test_loop_ranges_by_interval_arithmetic(nest: str, expected: list) -> None:
    body = "%c = arith.constant 0 : index"
    text = f"func.func @f(%n: index) {{\n{nest.replace('{X}', '{' + body + '}')}\nreturn\n}}"
    function = _parse(text).functions()[0]
    loops = [op for op in function.walk() if op.name == "affine.for"]
    ranges = iv_ranges(loops)
    assert not isinstance(ranges, str), ranges
    found = [ranges.of[ForOp(loop).induction_var] for loop in loops]
    assert [(print_expr(low), print_expr(high)) for low, high in found] == expected


REFUSED = {
    "vector": (
        """
func.func @f(%A: memref<8x8xf32>) -> vector<4xf32> {
  %z = arith.constant dense<0.0> : vector<4xf32>
  %r = affine.for %i = 0 to 8 iter_args(%acc = %z) -> (vector<4xf32>) {
    %v = affine.vector_load %A[%i, 0] : memref<8x8xf32>, vector<4xf32>
    %s = arith.addf %acc, %v : vector<4xf32>
    affine.yield %s : vector<4xf32>
  }
  return %r : vector<4xf32>
}
""",
        "it carries a vector<4xf32>, not a scalar",
    ),
    "bound from an op": (
        """
func.func @f(%A: memref<?xf32>) {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %z) -> (f32) {
      %v = affine.load %A[%k] : memref<?xf32>
      %s = arith.addf %acc, %v : f32
      affine.yield %s : f32
    }
    affine.store %r, %A[%i] : memref<?xf32>
  }
  return
}
""",
        "a bound uses %n, not a loop IV, a constant or an argument",
    ),
    "too big": (
        """
func.func @f(%A: memref<8xf32>, %B: memref<1000x1000x1000xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 1000 {
    affine.for %j = 0 to 1000 {
      affine.for %l = 0 to 1000 {
        %r = affine.for %k = 0 to 8 iter_args(%acc = %z) -> (f32) {
          %v = affine.load %A[%k] : memref<8xf32>
          %s = arith.addf %acc, %v : f32
          affine.yield %s : f32
        }
        affine.store %r, %B[%i, %j, %l] : memref<1000x1000x1000xf32>
      }
    }
  }
  return
}
""",
        "its buffers would take 4000000000 bytes, over 268435456",
    ),
    "several blocks": (
        """
func.func @f(%A: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  cf.br ^next
^next:
  %r = affine.for %k = 0 to 8 iter_args(%acc = %z) -> (f32) {
    %v = affine.load %A[%k] : memref<8xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  affine.store %r, %A[0] : memref<8xf32>
  return
}
""",
        "its function has more than one block",
    ),
    "inside scf.for": (
        """
func.func @f(%A: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %z) -> (f32) {
      %v = affine.load %A[%k] : memref<8xf32>
      %s = arith.addf %acc, %v : f32
      affine.yield %s : f32
    }
    memref.store %r, %A[%i] : memref<8xf32>
  }
  return
}
""",
        "it is inside scf.for at",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_what_cannot_be_expanded_says_why(case: str) -> None:
    text, reason = REFUSED[case]
    module = _parse(text)
    result, remarks = run_pass(module, "affine-expand-iter-args", "")
    assert affine.print_module(result) == affine.print_module(module)
    assert any(reason in r for r in remarks), remarks


@pytest.mark.mlir
def test_mlir_opt_accepts_the_output(mlir_opt: str) -> None:
    for kernel in CARRIERS:
        path = KERNELS / f"{kernel}.mlir"
        expanded, _ = _expanded(_parse(path.read_text(), str(path)))
        out = run_mlir_opt(mlir_opt, affine.print_module(expanded))
        assert out.returncode == 0, (kernel, out.stderr)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests(), st.lists(pass_configs(), max_size=3))
def test_random_nests_expanded_then_transformed_compute_the_same(nest, sequence) -> None:
    module = _parse(nest.text, "nest.mlir")
    current, _ = _expanded(module)
    for name, options in sequence:
        current, _ = run_pass(current, name, options)
        current = affine.parse(affine.print_module(current), "step.mlir")
    outcome = check_equivalent(module.functions()[0], current.functions()[0], backend="interp")
    assert outcome, (sequence, affine.print_module(current), outcome)


REDUCTIONS = """
func.func @r(%A: memref<20x30xi32>, %B: memref<20x30xf32>, %o: memref<4xi32>, %p: memref<2xf32>) {
  %a, %b = affine.parallel (%i, %j) = (max(0, 1), 2) to (min(19, 20), 30) step (2, 3)
      reduce ("addi", "andi") -> (i32, i32) {
    %v = affine.load %A[%i, %j] : memref<20x30xi32>
    affine.yield %v, %v : i32, i32
  }
  affine.store %a, %o[0] : memref<4xi32>
  affine.store %b, %o[1] : memref<4xi32>
  %c = affine.parallel (%i) = (0) to (20) reduce ("mulf") -> f32 {
    %v = affine.load %B[%i, 3] : memref<20x30xf32>
    affine.yield %v : f32
  }
  affine.store %c, %p[0] : memref<2xf32>
  %d, %e = affine.parallel (%i) = (0) to (20) reduce ("minimumf", "ori") -> (f32, i32) {
    %v = affine.load %B[%i, 4] : memref<20x30xf32>
    %w = affine.load %A[%i, 4] : memref<20x30xi32>
    affine.yield %v, %w : f32, i32
  }
  affine.store %d, %p[1] : memref<2xf32>
  affine.store %e, %o[2] : memref<4xi32>
  affine.parallel (%i) = (0) to (20) {
    %v = affine.load %A[%i, 5] : memref<20x30xi32>
    affine.store %v, %A[%i, 6] : memref<20x30xi32>
  }
  return
}
"""


@pytest.mark.mlir
def test_parallel_reductions_run_in_order_in_for_loops(mlir_opt: str) -> None:
    # each affine.parallel with reductions becomes one affine.for per dimension (bounds'
    # max/min groups and steps kept), its reductions carried from their neutral elements
    # (0 and all ones for addi and andi, 1.0 for mulf, +inf and 0 for minimumf and ori)
    # and combined in the order the interpreter runs: equal bit for bit there (the C
    # backend's OpenMP reductions pick an order of their own); a parallel loop without
    # reductions stays
    from transforms.registry import PassContext
    from transforms.scalar_expansion import serial_reductions

    module = affine.parse(REDUCTIONS, "r.mlir")
    serial = module.clone()
    done = serial_reductions(serial.functions()[0], PassContext(print_op_on_diagnostic=False))
    assert [d.split(" at ")[1].split(" run")[0] for d in done] == [
        "r.mlir:3:12",
        "r.mlir:10:8",
        "r.mlir:15:12",
    ]
    text = affine.print_module(serial)
    assert text.count("affine.parallel") == 1 and text.count("affine.for") == 4
    assert re.search(r"affine\.for %\w+ = max #map\d*\(\) to min #map\d*\(\) step 2", text)
    assert re.search(r"affine\.for %\w+ = 2 to 30 step 3 iter_args", text)
    for constant in ("0 : i32", "-1 : i32", "1.000000e+00 : f32", "0x7F800000 : f32"):
        assert f"arith.constant {constant}" in text, constant
    assert "arith.minimumf %" in text and "arith.andi %" in text
    assert check_equivalent(module, serial, backend="interp", rtol=0.0)
    assert check_equivalent(module, serial, backend="c")
    assert run_mlir_opt(mlir_opt, text).returncode == 0


def test_column_sums_in_a_parallel_reduction_are_reordered() -> None:
    # y[i] = sum over j of A[j][i]^2 in an affine.parallel reduction: one statement to the
    # schedules until its sums run in order (serial_reductions) and live in memory; then
    # j goes outside i and the inner loop reads A's rows stride-1
    from transforms.auto_scheduler import auto_schedule

    text = """
    func.func @colsums(%A: memref<64x48xf32>, %y: memref<48xf32>) {
      affine.for %i = 0 to 48 {
        %r = affine.parallel (%j) = (0) to (64) reduce ("addf") -> (f32) {
          %a = affine.load %A[%j, %i] : memref<64x48xf32>
          %p = arith.mulf %a, %a : f32
          affine.yield %p : f32
        }
        affine.store %r, %y[%i] : memref<48xf32>
      }
      return
    }
    """
    module = affine.parse(text, "colsums.mlir")
    result = auto_schedule(module, l1=1, l2=4, l3=16)
    (report,) = result.functions
    assert report.chosen.startswith("expanded"), report.chosen
    out = affine.print_module(result.module)
    assert "affine.parallel" not in out
    assert check_equivalent(module, result.module, backend="interp", rtol=0.0)
    # the C backend sums an affine.parallel reduction in an order of its own (an OpenMP
    # reduction): equal within the default tolerance
    assert check_equivalent(module, result.module, backend="c")
