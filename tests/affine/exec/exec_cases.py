"""Scalar semantics both backends must implement: one op, its inputs, the expected result.

Each case is a function ``@f`` with one op; expected values were worked out by hand from
the MLIR op definitions (wrap-around at the width, signed/unsigned views, IEEE floats in
the type's precision, NaN and signed-zero rules, saturating float-to-int conversions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Case:
    """``op`` uses ``%a``, ``%b``, ``%c``; ``exact`` False allows 2 ulp (transcendentals)."""

    op: str
    args: tuple[tuple[str, Any], ...]
    result: str
    expected: Any
    exact: bool = True

    @property
    def text(self) -> str:
        params = ", ".join(f"%{n}: {t}" for n, (t, _) in zip("abc", self.args))
        return f"func.func @f({params}) -> {self.result} {{\n  %r = {self.op}\n  return %r : {self.result}\n}}\n"

    @property
    def values(self) -> list[Any]:
        return [v for _, v in self.args]

    def check(self, got: Any) -> None:
        expected = self.expected
        if isinstance(expected, float) or isinstance(expected, np.floating):
            if math.isnan(expected):
                assert math.isnan(got), got
            elif self.exact:
                assert got == expected, (got, expected)
                assert math.copysign(1.0, float(got)) == math.copysign(1.0, float(expected)), (
                    got,
                    expected,
                )
            else:
                assert abs(float(got) - float(expected)) <= 2 * abs(
                    np.spacing(np.asarray(expected).astype(type(got)))
                ), (got, expected)
        else:
            assert got == expected and type(got) is type(expected), (got, expected)


def f32(x: float) -> float:
    return float(np.float32(x))


INT32_MIN = -(2**31)
NAN = float("nan")
INF = float("inf")

CASES: dict[str, Case] = {
    # wrap-around
    "addi_i32_overflow": Case(
        "arith.addi %a, %b : i32", (("i32", 2**31 - 1), ("i32", 1)), "i32", INT32_MIN
    ),
    "subi_i8_underflow": Case("arith.subi %a, %b : i8", (("i8", -128), ("i8", 1)), "i8", 127),
    "muli_i32_wrap": Case(
        "arith.muli %a, %b : i32", (("i32", 100000), ("i32", 100000)), "i32", 1410065408
    ),
    "muli_i64_wrap": Case("arith.muli %a, %b : i64", (("i64", 2**62), ("i64", 4)), "i64", 0),
    "muli_i16_promotion": Case("arith.muli %a, %b : i16", (("i16", -1), ("i16", -1)), "i16", 1),
    # division and remainder
    "divsi_truncates": Case("arith.divsi %a, %b : i32", (("i32", -7), ("i32", 2)), "i32", -3),
    "divsi_min_by_minus_one": Case(
        "arith.divsi %a, %b : i32", (("i32", INT32_MIN), ("i32", -1)), "i32", INT32_MIN
    ),
    "divui_unsigned_view": Case(
        "arith.divui %a, %b : i32", (("i32", -1), ("i32", 2)), "i32", 2**31 - 1
    ),
    "remsi_sign_of_dividend": Case(
        "arith.remsi %a, %b : i32", (("i32", -7), ("i32", 3)), "i32", -1
    ),
    "remsi_negative_divisor": Case("arith.remsi %a, %b : i32", (("i32", 7), ("i32", -3)), "i32", 1),
    "remui": Case("arith.remui %a, %b : i32", (("i32", -1), ("i32", 10)), "i32", 5),
    "floordivsi": Case("arith.floordivsi %a, %b : i32", (("i32", -7), ("i32", 2)), "i32", -4),
    "floordivsi_negative_divisor": Case(
        "arith.floordivsi %a, %b : i32", (("i32", 7), ("i32", -2)), "i32", -4
    ),
    "ceildivsi": Case("arith.ceildivsi %a, %b : i32", (("i32", 7), ("i32", 2)), "i32", 4),
    "ceildivsi_negative": Case(
        "arith.ceildivsi %a, %b : i32", (("i32", -7), ("i32", 2)), "i32", -3
    ),
    "ceildivui": Case("arith.ceildivui %a, %b : i32", (("i32", 7), ("i32", 2)), "i32", 4),
    "divsi_index": Case("arith.divsi %a, %b : index", (("index", -9), ("index", 4)), "index", -2),
    # bits and shifts
    "shli_i8_into_sign": Case("arith.shli %a, %b : i8", (("i8", 1), ("i8", 7)), "i8", -128),
    "shli_too_far": Case("arith.shli %a, %b : i8", (("i8", 1), ("i8", 8)), "i8", 0),
    "shrsi_i8": Case("arith.shrsi %a, %b : i8", (("i8", -128), ("i8", 1)), "i8", -64),
    "shrui_i8": Case("arith.shrui %a, %b : i8", (("i8", -128), ("i8", 1)), "i8", 64),
    "xori_i16": Case("arith.xori %a, %b : i16", (("i16", -1), ("i16", 0x0F0F)), "i16", -0x0F10),
    "maxui_sees_unsigned": Case("arith.maxui %a, %b : i32", (("i32", -1), ("i32", 1)), "i32", -1),
    "minsi": Case("arith.minsi %a, %b : i32", (("i32", -1), ("i32", 1)), "i32", -1),
    "addi_i3_width": Case("arith.addi %a, %b : i3", (("i3", 3), ("i3", 1)), "i3", -4),
    # comparisons and select
    "cmpi_slt": Case("arith.cmpi slt, %a, %b : i32", (("i32", -1), ("i32", 1)), "i1", True),
    "cmpi_ult": Case("arith.cmpi ult, %a, %b : i32", (("i32", -1), ("i32", 1)), "i1", False),
    "cmpi_uge_i8": Case("arith.cmpi uge, %a, %b : i8", (("i8", -128), ("i8", 127)), "i1", True),
    "select": Case(
        "arith.select %a, %b, %c : i32", (("i1", True), ("i32", 5), ("i32", 9)), "i32", 5
    ),
    "cmpf_olt_nan": Case("arith.cmpf olt, %a, %b : f32", (("f32", NAN), ("f32", 1.0)), "i1", False),
    "cmpf_ult_nan": Case("arith.cmpf ult, %a, %b : f32", (("f32", NAN), ("f32", 1.0)), "i1", True),
    "cmpf_one": Case("arith.cmpf one, %a, %b : f64", (("f64", 1.0), ("f64", 2.0)), "i1", True),
    "cmpf_ueq_nan": Case("arith.cmpf ueq, %a, %b : f64", (("f64", NAN), ("f64", NAN)), "i1", True),
    "cmpf_ord": Case("arith.cmpf ord, %a, %b : f64", (("f64", 1.0), ("f64", NAN)), "i1", False),
    # integer casts
    "extsi_i8": Case("arith.extsi %a : i8 to i32", (("i8", -1),), "i32", -1),
    "extui_i8": Case("arith.extui %a : i8 to i32", (("i8", -1),), "i32", 255),
    "extui_i1": Case("arith.extui %a : i1 to i32", (("i1", True),), "i32", 1),
    "extsi_i1": Case("arith.extsi %a : i1 to i32", (("i1", True),), "i32", -1),
    "trunci": Case("arith.trunci %a : i32 to i8", (("i32", 200),), "i8", -56),
    "index_cast_to_index": Case("arith.index_cast %a : i32 to index", (("i32", -5),), "index", -5),
    "index_castui_to_index": Case(
        "arith.index_castui %a : i32 to index", (("i32", -1),), "index", 2**32 - 1
    ),
    "index_cast_from_index": Case("arith.index_cast %a : index to i8", (("index", 300),), "i8", 44),
    # floats in their own precision
    "addf_f32_rounds": Case(
        "arith.addf %a, %b : f32", (("f32", 16777216.0), ("f32", 1.0)), "f32", 16777216.0
    ),
    "divf_f32": Case("arith.divf %a, %b : f32", (("f32", 1.0), ("f32", 3.0)), "f32", f32(1 / 3)),
    "divf_by_zero": Case("arith.divf %a, %b : f64", (("f64", 1.0), ("f64", 0.0)), "f64", INF),
    "divf_zero_by_zero": Case("arith.divf %a, %b : f64", (("f64", 0.0), ("f64", 0.0)), "f64", NAN),
    "addf_f16_rounds": Case(
        "arith.addf %a, %b : f16", (("f16", 2048.0), ("f16", 1.0)), "f16", 2048.0
    ),
    "mulf_f16_overflow": Case(
        "arith.mulf %a, %b : f16", (("f16", 300.0), ("f16", 300.0)), "f16", INF
    ),
    "remf": Case("arith.remf %a, %b : f64", (("f64", -7.5), ("f64", 2.0)), "f64", -1.5),
    "negf_zero": Case("arith.negf %a : f32", (("f32", 0.0),), "f32", -0.0),
    "maximumf_nan": Case("arith.maximumf %a, %b : f32", (("f32", NAN), ("f32", 1.0)), "f32", NAN),
    "maxnumf_nan": Case("arith.maxnumf %a, %b : f32", (("f32", NAN), ("f32", 1.0)), "f32", 1.0),
    "maximumf_signed_zero": Case(
        "arith.maximumf %a, %b : f32", (("f32", -0.0), ("f32", 0.0)), "f32", 0.0
    ),
    "minimumf_signed_zero": Case(
        "arith.minimumf %a, %b : f64", (("f64", 0.0), ("f64", -0.0)), "f64", -0.0
    ),
    # float casts
    "fptosi_truncates": Case("arith.fptosi %a : f32 to i32", (("f32", -3.9),), "i32", -3),
    "fptosi_saturates": Case("arith.fptosi %a : f64 to i32", (("f64", 1e10),), "i32", 2**31 - 1),
    "fptosi_nan": Case("arith.fptosi %a : f64 to i8", (("f64", NAN),), "i8", 0),
    "fptoui_negative": Case("arith.fptoui %a : f32 to i32", (("f32", -1.0),), "i32", 0),
    "sitofp_rounds": Case("arith.sitofp %a : i32 to f32", (("i32", 16777217),), "f32", 16777216.0),
    "uitofp_i8": Case("arith.uitofp %a : i8 to f32", (("i8", -1),), "f32", 255.0),
    "truncf": Case("arith.truncf %a : f64 to f32", (("f64", 0.1),), "f32", f32(0.1)),
    "extf_f16": Case("arith.extf %a : f16 to f64", (("f16", 0.1),), "f64", float(np.float16(0.1))),
    "bitcast_f32_i32": Case("arith.bitcast %a : f32 to i32", (("f32", 1.0),), "i32", 1065353216),
    "bitcast_i64_f64": Case(
        "arith.bitcast %a : i64 to f64", (("i64", 4613937818241073152),), "f64", 3.0
    ),
    # math
    "sqrt_f32": Case("math.sqrt %a : f32", (("f32", 2.0),), "f32", f32(math.sqrt(2.0))),
    "round_half_away": Case("math.round %a : f32", (("f32", -2.5),), "f32", -3.0),
    "roundeven": Case("math.roundeven %a : f64", (("f64", 2.5),), "f64", 2.0),
    "trunc": Case("math.trunc %a : f64", (("f64", -2.7),), "f64", -2.0),
    "fma_single_rounding": Case(
        "math.fma %a, %b, %c : f64",
        (("f64", 0.1), ("f64", 10.0), ("f64", -1.0)),
        "f64",
        5.551115123125783e-17,
    ),
    "copysign": Case("math.copysign %a, %b : f32", (("f32", 2.0), ("f32", -0.0)), "f32", -2.0),
    "exp_f64": Case("math.exp %a : f64", (("f64", 1.0),), "f64", math.e, exact=False),
    "tanh_f32": Case(
        "math.tanh %a : f32", (("f32", 0.5),), "f32", f32(math.tanh(0.5)), exact=False
    ),
    "erf_f64": Case("math.erf %a : f64", (("f64", 0.5),), "f64", math.erf(0.5), exact=False),
    "powf": Case("math.powf %a, %b : f64", (("f64", 2.0), ("f64", 10.0)), "f64", 1024.0),
    "fpowi": Case("math.fpowi %a, %b : f64, i32", (("f64", 2.0), ("i32", -2)), "f64", 0.25),
    "isnan": Case("math.isnan %a : f32", (("f32", NAN),), "i1", True),
    "isinf": Case("math.isinf %a : f64", (("f64", 1.0),), "i1", False),
    "absi": Case("math.absi %a : i32", (("i32", -5),), "i32", 5),
    "ctlz": Case("math.ctlz %a : i32", (("i32", 1),), "i32", 31),
    "ctlz_zero": Case("math.ctlz %a : i16", (("i16", 0),), "i16", 16),
    "cttz": Case("math.cttz %a : i32", (("i32", 8),), "i32", 3),
    "ctpop": Case("math.ctpop %a : i8", (("i8", -1),), "i8", 8),
    "ipowi": Case("math.ipowi %a, %b : i32", (("i32", 3), ("i32", 4)), "i32", 81),
    "ipowi_wraps": Case("math.ipowi %a, %b : i8", (("i8", 3), ("i8", 5)), "i8", -13),
}


# Whole programs (several ops, control flow, memory); tests state their expected results.
PROGRAMS: dict[str, str] = {
    "dma_affine": """
func.func @dma(%A: memref<4x8xf32>, %B: memref<16xf32, 1>) {
  %tag = memref.alloc() : memref<1xi32>
  %c0 = arith.constant 0 : index
  %n = arith.constant 10 : index
  affine.dma_start %A[1, 3], %B[2], %tag[0], %n : memref<4x8xf32>, memref<16xf32, 1>, memref<1xi32>
  affine.dma_wait %tag[0], %n : memref<1xi32>
  return
}
""",
    "dma_memref": """
func.func @dma(%A: memref<4x8xf32>, %B: memref<16xf32, 1>) {
  %tag = memref.alloc() : memref<1xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 10 : index
  memref.dma_start %A[%c1, %c3], %B[%c2], %n, %tag[%c0] : memref<4x8xf32>, memref<16xf32, 1>, memref<1xi32>
  memref.dma_wait %tag[%c0], %n : memref<1xi32>
  return
}
""",
    "dma_seed": """
func @dma(%A : memref<4x8xf32>, %B : memref<16xf32, 1>) {
  %tag = alloc() : memref<1xi32>
  %c0 = constant 0 : index
  %n = constant 10 : index
  %one = constant 1 : index
  %three = constant 3 : index
  %two = constant 2 : index
  dma_start %A[%one, %three], %B[%two], %n, %tag[%c0] : memref<4x8xf32>, memref<16xf32, 1>, memref<1xi32>
  dma_wait %tag[%c0], %n : memref<1xi32>
  return
}
""",
    "strided_dma": """
func.func @dma(%A: memref<8x8xf32>, %B: memref<2x4xf32, 2>) {
  %tag = memref.alloc() : memref<1xi32>
  %n = arith.constant 8 : index
  %stride = arith.constant 8 : index
  %per = arith.constant 4 : index
  affine.dma_start %A[2, 1], %B[0, 0], %tag[0], %n, %stride, %per : memref<8x8xf32>, memref<2x4xf32, 2>, memref<1xi32>
  return
}
""",
    "factorial": """
func.func @fact(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %small = arith.cmpi sle, %n, %one : i64
  %r = scf.if %small -> (i64) {
    scf.yield %one : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}
""",
    "collatz": """
func.func @collatz(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %n, %steps = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi ne, %x, %c1 : i32
    scf.condition(%more) %x, %steps : i32, i32
  } do {
  ^bb0(%x: i32, %steps: i32):
    %odd = arith.remui %x, %c2 : i32
    %is_odd = arith.cmpi ne, %odd, %c0 : i32
    %next = scf.if %is_odd -> (i32) {
      %t = arith.muli %x, %c3 : i32
      %u = arith.addi %t, %c1 : i32
      scf.yield %u : i32
    } else {
      %h = arith.divui %x, %c2 : i32
      scf.yield %h : i32
    }
    %s = arith.addi %steps, %c1 : i32
    scf.yield %next, %s : i32, i32
  }
  %lb = arith.constant 0 : i32
  %sum = scf.for %i = %lb to %r#1 step %c2 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  }
  return %r#1, %sum : i32, i32
}
""",
    "absdiff": """
func.func @absdiff(%a: index, %b: index) -> index {
  %lt = arith.cmpi slt, %a, %b : index
  cf.cond_br %lt, ^less(%b, %a : index, index), ^less(%a, %b : index, index)
^less(%x: index, %y: index):
  %d = arith.subi %x, %y : index
  cf.br ^done(%d : index)
^done(%r: index):
  return %r : index
}
""",
    "execute_region": """
func.func @er(%b: memref<8xf32>, %n: index) {
  affine.for %i = 0 to 8 {
    %v = scf.execute_region -> f32 {
      %w = affine.load %b[%i] : memref<8xf32>
      %c = arith.cmpi ult, %i, %n : index
      cf.cond_br %c, ^bb1(%w : f32), ^bb2
    ^bb1(%x: f32):
      %s = arith.addf %x, %w : f32
      scf.yield %s : f32
    ^bb2:
      %m = scf.execute_region -> f32 {
        %p = arith.mulf %w, %w : f32
        scf.yield %p : f32
      }
      scf.yield %m : f32
    }
    affine.store %v, %b[%i] : memref<8xf32>
  }
  return
}
""",
    "dynamic_copy": """
func.func @scale(%A: memref<?x?xf64>, %B: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  %T = memref.alloc(%n, %m) : memref<?x?xf64>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %v = affine.load %A[%i, %j] : memref<?x?xf64>
      %w = arith.addf %v, %v : f64
      affine.store %w, %T[%i, %j] : memref<?x?xf64>
    }
  }
  memref.copy %T, %B : memref<?x?xf64> to memref<?x?xf64>
  memref.dealloc %T : memref<?x?xf64>
  return
}
""",
    "layout_symbols": """
#padded = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
func.func @sum(%A: memref<3x4xf32, #padded>, %out: memref<1xf32>) {
  %z = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to 3 iter_args(%acc = %z) -> (f32) {
    %t = affine.for %j = 0 to 4 iter_args(%a2 = %acc) -> (f32) {
      %v = affine.load %A[%i, %j] : memref<3x4xf32, #padded>
      %n = arith.addf %a2, %v : f32
      affine.yield %n : f32
    }
    affine.yield %t : f32
  }
  affine.store %s, %out[0] : memref<1xf32>
  return
}
""",
    "casts": """
func.func @f(%A: memref<4x4xf32>) -> f32 {
  %d = memref.cast %A : memref<4x4xf32> to memref<?x?xf32>
  %s = memref.cast %d : memref<?x?xf32> to memref<4x4xf32, strided<[?, ?], offset: ?>>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %s[%c1, %c2] : memref<4x4xf32, strided<[?, ?], offset: ?>>
  return %v : f32
}
""",
    "f32_sum": """
func.func @acc(%x: memref<1000xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to 1000 iter_args(%a = %z) -> (f32) {
    %v = affine.load %x[%i] : memref<1000xf32>
    %n = arith.addf %a, %v : f32
    affine.yield %n : f32
  }
  return %s : f32
}
""",
    "branch_alloc": """
func.func @pick(%A: memref<8xf32>, %n: index) -> f32 {
  %T = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %big = arith.cmpi sge, %n, %c4 : index
  cf.cond_br %big, ^copy, ^done(%c0 : index)
^copy:
  memref.copy %A, %T : memref<8xf32> to memref<8xf32>
  cf.br ^done(%n : index)
^done(%k: index):
  %v = memref.load %T[%k] : memref<8xf32>
  memref.dealloc %T : memref<8xf32>
  return %v : f32
}
""",
    "subview": """
func.func @f(%A: memref<8x8xf32>, %i: index) -> f32 {
  %s = memref.subview %A[%i, 2] [3, 4] [2, 1] : memref<8x8xf32> to memref<3x4xf32, strided<[16, 1], offset: ?>>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %s[%c1, %c2] : memref<3x4xf32, strided<[16, 1], offset: ?>>
  %t = memref.subview %s[1, 1] [2, 2] [1, 1] : memref<3x4xf32, strided<[16, 1], offset: ?>> to memref<2x2xf32, strided<[16, 1], offset: ?>>
  %w = memref.load %t[%c1, %c1] : memref<2x2xf32, strided<[16, 1], offset: ?>>
  %r = arith.addf %v, %w : f32
  return %r : f32
}
""",
    "reinterpret_cast": """
func.func @g(%B: memref<32xf32>, %o: index) -> f32 {
  %v = "memref.reinterpret_cast"(%B, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 6, 1>}> : (memref<32xf32>, index) -> memref<4x4xf32, strided<[6, 1], offset: ?>>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.load %v[%c2, %c1] : memref<4x4xf32, strided<[6, 1], offset: ?>>
  return %x : f32
}
""",
    "mutual_recursion": """
func.func @is_even(%n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %zero = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %zero -> (i1) {
    %t = arith.constant true
    scf.yield %t : i1
  } else {
    %c1 = arith.constant 1 : index
    %m = arith.subi %n, %c1 : index
    %o = func.call @is_odd(%m) : (index) -> i1
    scf.yield %o : i1
  }
  return %r : i1
}
func.func private @is_odd(%n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %zero = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %zero -> (i1) {
    %f = arith.constant false
    scf.yield %f : i1
  } else {
    %c1 = arith.constant 1 : index
    %m = arith.subi %n, %c1 : index
    %e = func.call @is_even(%m) : (index) -> i1
    scf.yield %e : i1
  }
  return %r : i1
}
""",
}
