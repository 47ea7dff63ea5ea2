"""bf16, tf32, f80 and the f8/f6/f4 types on both backends, and on the MLIR JIT where
mlir-runner 22 can lower them (bf16 natively; f4E2M1FN and f8E8M0FNU through
``-arith-emulate-unsupported-floats`` and ``-arith-expand``).

The semantics (``affine/exec/interp.py``, ``FloatOps``): every op on a type narrower than f32
other than f16 computes in f32 and rounds the result to the type as ml_dtypes converts
(to nearest even; FN and FNUZ types overflow to NaN, f4/f6 saturate, NaNs become the
type's canonical NaN); conversions from f64 and from integers go through f32, and fma is
an f32 fma (f16: an f64 fma) rounded to the type, as LLVM legalises them on x86.

Known differences from the MLIR JIT, kept out of the agreement tests:

- bf16 on CPUs with AVX512-BF16: LLVM rounds with ``vcvtneps2bf16``, which flushes
  subnormal results to zero; LLVM also keeps NaN payload bits where ml_dtypes (and we) give
  the canonical quiet NaN.
- f4E2M1FN through ``-arith-expand``: ties round away from zero (2.5 becomes 3) and a NaN
  becomes 6 (ml_dtypes: a zero).  f8E8M0FNU through ``-arith-expand``: ``truncf`` truncates
  (3 becomes 2, ml_dtypes rounds half up to 4), drops the sign and turns 0 into 2^-127
  (ml_dtypes: NaN for both), and ``extf`` of the code 0x00 gives 0 instead of 2^-127.
- f80: MLIR 22's LLVM translation rounds f80 constants to double; the JIT is not used.
"""

from __future__ import annotations

import ctypes
import math
import subprocess
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from conftest import CORPUS
from exec_cases import Case

import affine
from affine.exec.c_scalar import PRELUDE, codec_c
from affine.exec.elements import ElementInfo, ExecutionError, element_info, encode_f32, float_bits
from affine.exec.equivalence import check_equivalent, compare_arrays
from affine.exec.inputs import deterministic_values, random_inputs, resolve_function
from affine.exec.mlir_runner import MLIR_LOWERING, mlir_harness
from affine.exec.running import run, scalar_argument
from affine.exec.toolchain import build_library
from affine.ir.types import FloatType, IntegerType, Type

NEW_TYPES = [
    "bf16", "tf32", "f80", "f8E5M2", "f8E4M3", "f8E3M4", "f8E4M3FN", "f8E4M3FNUZ",
    "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E8M0FNU", "f4E2M1FN", "f6E2M3FN", "f6E3M2FN",
]  # fmt: skip
ENCODED = [t for t in NEW_TYPES if t != "f80"]
NAN, INF = float("nan"), float("inf")


def mlir_type(name: str) -> Type:
    return IntegerType(int(name[1:])) if name.startswith("i") else FloatType(name)


def info_of(name: str) -> ElementInfo:
    return element_info(mlir_type(name))


def bits_of(array: np.ndarray, info: ElementInfo) -> list[int]:
    return [float_bits(x, info) for x in np.asarray(array).reshape(-1)]


# -- the C codecs against ml_dtypes -----------------------------------------------------------------


@pytest.fixture(scope="module")
def codecs() -> Any:
    """A library with ``enc_<type>`` / ``dec_<type>`` loops over the emitted codecs."""
    source = [PRELUDE]
    for name in ENCODED:
        info = info_of(name)
        source.append(codec_c(info))
        source.append(
            f"void enc_{name}(const float *x, {info.c} *o, long n) "
            f"{{ for (long i = 0; i < n; ++i) o[i] = pa_enc_{name}(x[i]); }}\n"
            f"void dec_{name}(const {info.c} *x, float *o, long n) "
            f"{{ for (long i = 0; i < n; ++i) o[i] = pa_dec_{name}(x[i]); }}\n"
        )
    return ctypes.CDLL(str(build_library("".join(source), opt="-O1")))


def _sample(high_bits: int, randoms: int) -> np.ndarray:
    """f32 encodings: every value of the top ``high_bits`` bits with low bits at and around
    every rounding position of the formats (ties, just above and below), plus random ones."""
    lows = np.array(
        [0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x3000, 0x7FFF, 0x8000, 0x8001, 0xFFFF],
        dtype=np.uint32,
    )
    highs = np.arange(1 << high_bits, dtype=np.uint32) << np.uint32(32 - high_bits)
    spread = (highs[:, None] | (lows << np.uint32(max(0, 16 - high_bits)))).ravel()
    rng = np.random.default_rng(high_bits)
    return np.concatenate([spread, rng.integers(0, 1 << 32, randoms, dtype=np.uint64)]).astype(
        np.uint32
    )


def _check_codec(codecs: Any, name: str, encodings: np.ndarray) -> None:
    info = info_of(name)
    x = encodings.view(np.float32)
    word = np.dtype(info.c.removesuffix("_t"))
    out = np.zeros(len(x), dtype=word)
    getattr(codecs, f"enc_{name}")(
        ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(out.ctypes.data), ctypes.c_long(len(x))
    )
    expected = encode_f32(x, info).view(word)
    bad = np.nonzero(out != expected)[0]
    assert not len(bad), [(hex(encodings[i]), hex(out[i]), hex(expected[i])) for i in bad[:5]]
    codes = (np.arange(min(1 << info.width, 1 << 16), dtype=np.uint64) << info.format.shift).astype(
        word
    )
    decoded = np.zeros(len(codes), dtype=np.float32)
    getattr(codecs, f"dec_{name}")(
        ctypes.c_void_p(codes.ctypes.data),
        ctypes.c_void_p(decoded.ctypes.data),
        ctypes.c_long(len(codes)),
    )
    with np.errstate(invalid="ignore"):
        reference = codes.view(info.numpy).astype(np.float32)
    assert np.array_equal(decoded.view(np.uint32), reference.view(np.uint32))


@pytest.mark.parametrize("name", ENCODED)
def test_c_codec_is_ml_dtypes_conversion(codecs: Any, name: str) -> None:
    """pa_enc_<type> rounds every sampled f32 exactly as ml_dtypes (tf32: encode_f32) does,
    and pa_dec_<type> decodes every code (NaN signs included) as ml_dtypes does."""
    _check_codec(codecs, name, _sample(12, 20_000))


@pytest.mark.slow
@pytest.mark.parametrize("name", ENCODED)
def test_c_codec_is_ml_dtypes_conversion_dense(codecs: Any, name: str) -> None:
    _check_codec(codecs, name, _sample(19, 2_000_000))


def test_tf32_rounding() -> None:
    info = info_of("tf32")
    values = np.array(
        [
            1 + 2**-11,  # tie between 1 and 1 + 2^-10: even, 1
            1 + 2**-10 + 2**-11,  # tie: even, 1 + 2^-9
            1 + 2**-11 + 2**-20,  # above the tie: 1 + 2^-10
            3.4028234663852886e38,  # f32 max is past tf32 max + half an ulp: inf
            2.0**-137,  # half the smallest tf32 subnormal 2^-136: tie, 0
            -(2.0**-135),  # a subnormal multiple of 2^-136, kept
        ],
        dtype=np.float32,
    )
    expected = [1.0, 1 + 2**-9, 1 + 2**-10, INF, 0.0, -(2.0**-135)]
    assert encode_f32(values, info).tolist() == expected
    nan = encode_f32(np.array([np.nan, -np.nan], dtype=np.float32), info).view(np.uint32)
    assert nan.tolist() == [0x7FC00000, 0xFFC00000]  # the quiet NaN of each sign


# -- whole kernels: both backends bit for bit ---------------------------------------------------------


def _kernel(t: str) -> tuple[str, int]:
    """Elementwise ops, conversions and reductions over three vectors of type ``t`` (of any
    length ``n``); the text and the number of rows of the results memref."""
    info = info_of(t)
    if info.width > 32:  # f80: f32 is narrower
        to32, from32 = f"arith.truncf %a : {t} to f32", f"arith.extf %g : f32 to {t}"
    else:
        to32, from32 = f"arith.extf %a : {t} to f32", f"arith.truncf %g : f32 to {t}"
    results = [
        f"arith.addf %a, %b : {t}",
        f"arith.subf %a, %b : {t}",
        f"arith.mulf %a, %b : {t}",
        f"arith.divf %a, %b : {t}",
        f"arith.remf %a, %b : {t}",
        f"arith.maximumf %a, %b : {t}",
        f"arith.minimumf %a, %b : {t}",
        f"arith.maxnumf %a, %b : {t}",
        f"arith.minnumf %a, %b : {t}",
        f"arith.negf %a : {t}",
        f"math.absf %a : {t}",
        f"math.sqrt %a : {t}",
        f"math.fma %a, %b, %c : {t}",
        f"math.copysign %a, %b : {t}",
        f"math.roundeven %a : {t}",
        f"math.floor %a : {t}",
        f"arith.select %lt, %a, %c : {t}",
        f"arith.select %ueq, %b, %c : {t}",
        from32,
        f"arith.sitofp %n : i32 to {t}",
        f"arith.uitofp %u : i16 to {t}",
        f"arith.mulf %a, %k : {t}",
    ]
    rows = len(results)
    lines = [
        f"func.func @k(%A: memref<?x{t}>, %B: memref<?x{t}>, %C: memref<?x{t}>, "
        f"%R: memref<{rows}x?x{t}>, %I: memref<4x?xi32>, %S: memref<3x{t}>) {{",
        "  %c0 = arith.constant 0 : index",
        f"  %len = memref.dim %A, %c0 : memref<?x{t}>",
        f"  %k = arith.constant 3.0 : {t}",
        "  %three = arith.constant 3.0 : f32",
        f"  %z = arith.constant 0.0 : {t}",
        "  affine.for %i = 0 to %len {",
        f"    %a = affine.load %A[%i] : memref<?x{t}>",
        f"    %b = affine.load %B[%i] : memref<?x{t}>",
        f"    %c = affine.load %C[%i] : memref<?x{t}>",
        f"    %lt = arith.cmpf olt, %a, %b : {t}",
        f"    %ueq = arith.cmpf ueq, %a, %c : {t}",
        f"    %e = {to32}",
        "    %g = arith.mulf %e, %three : f32",
        f"    %n = arith.fptosi %a : {t} to i32",
        f"    %u16 = arith.fptoui %b : {t} to i16",
        "    %u = arith.addi %u16, %u16 : i16",
        f"    %nan = math.isnan %c : {t}",
        f"    %normal = math.isnormal %a : {t}",
        "    %nan32 = arith.extui %nan : i1 to i32",
        "    %normal32 = arith.extui %normal : i1 to i32",
        "    %twice = arith.addi %normal32, %normal32 : i32",
        "    %flags = arith.addi %twice, %nan32 : i32",
        "    affine.store %n, %I[0, %i] : memref<4x?xi32>",
        "    %u32 = arith.extui %u16 : i16 to i32",
        "    affine.store %u32, %I[1, %i] : memref<4x?xi32>",
        "    affine.store %flags, %I[2, %i] : memref<4x?xi32>",
    ]
    if info.width < 32:
        lines += [
            f"    %bits = arith.bitcast %a : {t} to i{info.width}",
            f"    %bits32 = arith.extui %bits : i{info.width} to i32",
            "    affine.store %bits32, %I[3, %i] : memref<4x?xi32>",
        ]
    for k, op in enumerate(results):
        lines.append(f"    %r{k} = {op}")
        lines.append(f"    affine.store %r{k}, %R[{k}, %i] : memref<{rows}x?x{t}>")
    # Reductions over |a| (one NaN sign, one zero sign), so that the OpenMP combination
    # order cannot matter: a sum in order and a parallel maximum and minimum.
    lines += [
        "  }",
        f"  %sum = affine.for %i = 0 to %len iter_args(%acc = %z) -> ({t}) {{",
        f"    %a = affine.load %A[%i] : memref<?x{t}>",
        f"    %m = math.absf %a : {t}",
        f"    %s = arith.addf %acc, %m : {t}",
        f"    affine.yield %s : {t}",
        "  }",
        f'  %max, %min = affine.parallel (%i) = (0) to (%len) reduce ("maximumf", "minimumf") -> ({t}, {t}) {{',
        f"    %a = affine.load %A[%i] : memref<?x{t}>",
        f"    %m = math.absf %a : {t}",
        f"    affine.yield %m, %m : {t}, {t}",
        "  }",
        f"  affine.store %sum, %S[0] : memref<3x{t}>",
        f"  affine.store %max, %S[1] : memref<3x{t}>",
        f"  affine.store %min, %S[2] : memref<3x{t}>",
        "  return",
        "}",
    ]
    return "\n".join(lines) + "\n", rows


def _specials(t: str) -> np.ndarray:
    """Every code of an 8-bit-or-narrower type; otherwise zeros, infinities, NaN, the
    largest values, subnormals, ties and ordinary values."""
    info = info_of(t)
    if info.width <= 8:
        return np.arange(1 << info.width, dtype=np.uint8).view(info.numpy)
    plain = [0.0, -0.0, 1.0, -1.0, INF, -INF, NAN, 0.1, -3.5, 2.5, 1e30, 3e-39, 7e4, 65504.0]
    if t == "f80":
        fi = np.finfo(np.longdouble)
        extra = [fi.max, -fi.max, fi.tiny, fi.smallest_subnormal, 1 + fi.eps]
        return np.array(plain + extra, dtype=np.longdouble)
    p = info.format.mantissa  # bf16, tf32: f32's exponent range
    largest, smallest = (2 - 2.0**-p) * 2.0**127, 2.0 ** (-126 - p)
    extra = [largest, -largest, smallest, 2.0**-126 - smallest, 1 + 2.0**-p]
    return encode_f32(np.array(plain + extra, dtype=np.float32), info)


def _same(p: int, q: int, x: Any, info: ElementInfo) -> bool:
    """Equal encodings, or NaNs differing in their sign only: IEEE 754 (and LLVM) leave open
    which operand's NaN an op with two NaN operands returns, and numpy and the C compiler
    order the operands of commutative ops differently."""
    return p == q or (math.isnan(float(x)) and p ^ q == 1 << (info.width - 1))


@pytest.mark.parametrize("t", NEW_TYPES)
def test_kernel_agrees_bit_for_bit(t: str) -> None:
    """Arithmetic, min/max, math, selects on comparisons, conversions to and from f32 and
    integers, bitcasts, class tests and reductions: identical bits on both backends, on
    deterministic, random and special (NaN, infinity, overflow, subnormal) inputs."""
    info = info_of(t)
    specials = _specials(t)
    n = len(specials)
    text, rows = _kernel(t)
    func = resolve_function(affine.parse(text))
    rng = np.random.default_rng(5)
    sizes = {0: (24,), 1: (24,), 2: (24,), 3: (rows, 24), 4: (4, 24), 5: (3,)}
    for inputs in (
        [deterministic_values(FloatType(t), 24, a) for a in range(3)],
        random_inputs(func, seed=11, sizes=sizes)[:3],
        [specials, specials[rng.permutation(n)], specials[rng.permutation(n)]],
    ):
        n = len(inputs[0])
        outputs = []
        for backend in ("interp", "c"):
            arrays = [x.copy() for x in inputs]
            arrays.append(np.zeros((rows, n), dtype=info.numpy))
            arrays.append(np.zeros((4, n), dtype=np.int32))
            arrays.append(np.zeros(3, dtype=info.numpy))
            run(func, *arrays, backend=backend)
            outputs.append(arrays)
        for k, (x, y) in enumerate(zip(*outputs)):
            if x.dtype == np.int32:
                assert np.array_equal(x, y), (k, x, y)
                continue
            flat = x.reshape(-1)
            bx, by = bits_of(x, info), bits_of(y, info)
            bad = [i for i, (p, q) in enumerate(zip(bx, by)) if not _same(p, q, flat[i], info)]
            assert not bad, (k, [(i, flat[i], hex(bx[i]), hex(by[i])) for i in bad[:5]])


# -- hand-computed results -------------------------------------------------------------------------

L = np.longdouble

# Each expected value is worked out by hand from the formats (precision p significand bits:
# ties round to even, an ulp of 1 is 2^(1-p)); comments state the arithmetic.
CASES: dict[str, Case] = {
    # bf16: p = 8, ulp(1) = 2^-7, same exponent range as f32
    "bf16_add_tie_to_even": Case(  # 1 + 2^-8 is half an ulp above 1: tie, 1 is even
        "arith.addf %a, %b : bf16", (("bf16", 1.0), ("bf16", 2**-8)), "bf16", 1.0
    ),
    "bf16_add_tie_up_to_even": Case(  # 1 + 3*2^-8: tie between 1+2^-7 (odd) and 1+2^-6
        "arith.addf %a, %b : bf16", (("bf16", 1 + 2**-7), ("bf16", 2**-8)), "bf16", 1 + 2**-6
    ),
    "bf16_add_above_tie": Case(  # 1 + 2^-8 + 2^-15 is past the tie: up to 1 + 2^-7
        "arith.addf %a, %b : bf16", (("bf16", 1.0), ("bf16", 2**-8 + 2**-15)), "bf16", 1 + 2**-7
    ),
    "bf16_mul_overflow": Case(
        "arith.mulf %a, %b : bf16", (("bf16", 2.0**127), ("bf16", 2.0)), "bf16", INF
    ),
    "bf16_div_by_zero": Case(
        "arith.divf %a, %b : bf16", (("bf16", -1.0), ("bf16", 0.0)), "bf16", -INF
    ),
    "bf16_inf_minus_inf": Case(
        "arith.subf %a, %b : bf16", (("bf16", INF), ("bf16", INF)), "bf16", NAN
    ),
    "bf16_sqrt": Case(  # sqrt 2 = 1.41421...; neighbours 1 + 53/128 = 1.4140625 and 1.421875
        "math.sqrt %a : bf16", (("bf16", 2.0),), "bf16", 1.4140625
    ),
    "bf16_subnormal_result": Case(  # 2^-126 * 2^-3 = 2^-129, a bf16 subnormal (kept)
        "arith.mulf %a, %b : bf16", (("bf16", 2.0**-126), ("bf16", 2.0**-3)), "bf16", 2.0**-129
    ),
    "bf16_fma_rounds_in_f32": Case(  # 1.5 (1 + 2^-7) - 2^-62 = 1.5 + 2^-7 + 2^-8 - 2^-62: just
        # below the tie between 1.5 + 2^-7 and 1.5 + 2^-6; the f32 fma rounds onto the tie,
        # which then goes to the even 1.5 + 2^-6 (LLVM computes bf16 fma in f32)
        "math.fma %a, %b, %c : bf16",
        (("bf16", 1.5), ("bf16", 1 + 2**-7), ("bf16", -(2.0**-62))),
        "bf16",
        1.5 + 2**-6,
    ),
    "bf16_maximumf_signed_zero": Case(
        "arith.maximumf %a, %b : bf16", (("bf16", -0.0), ("bf16", 0.0)), "bf16", 0.0
    ),
    "bf16_minimumf_nan": Case(
        "arith.minimumf %a, %b : bf16", (("bf16", NAN), ("bf16", 0.0)), "bf16", NAN
    ),
    "bf16_maxnumf_nan": Case(
        "arith.maxnumf %a, %b : bf16", (("bf16", NAN), ("bf16", 2.0)), "bf16", 2.0
    ),
    "bf16_cmpf_olt_nan": Case(
        "arith.cmpf olt, %a, %b : bf16", (("bf16", NAN), ("bf16", 1.0)), "i1", False
    ),
    "bf16_cmpf_une_nan": Case(
        "arith.cmpf une, %a, %b : bf16", (("bf16", NAN), ("bf16", 1.0)), "i1", True
    ),
    "bf16_cmpf_oeq_zeros": Case(
        "arith.cmpf oeq, %a, %b : bf16", (("bf16", 0.0), ("bf16", -0.0)), "i1", True
    ),
    "bf16_truncf_f32_above_tie": Case(  # 1 + 2^-8 + 2^-16: past the tie, 1 + 2^-7
        "arith.truncf %a : f32 to bf16", (("f32", 1 + 2**-8 + 2**-16),), "bf16", 1 + 2**-7
    ),
    "bf16_truncf_f32_overflow": Case(  # f32 max is past bf16 max + half an ulp
        "arith.truncf %a : f32 to bf16", (("f32", 3.4028234663852886e38),), "bf16", INF
    ),
    "bf16_truncf_f64_through_f32": Case(  # 1 + 2^-8 + 2^-30 rounds to the f32 1 + 2^-8 (2^-30
        # is under half an f32 ulp), a bf16 tie that goes to 1 (directly it would be 1 + 2^-7)
        "arith.truncf %a : f64 to bf16",
        (("f64", 1 + 2**-8 + 2**-30),),
        "bf16",
        1.0,
    ),
    "bf16_extf": Case(  # bf16 0.1 is 0x3DCD = 0.10009765625 exactly
        "arith.extf %a : bf16 to f64", (("bf16", 0.10009765625),), "f64", 0.10009765625
    ),
    "bf16_sitofp_i32": Case(  # 2^24 + 1 rounds to the f32 2^24, exact in bf16
        "arith.sitofp %a : i32 to bf16", (("i32", 2**24 + 1),), "bf16", 2.0**24
    ),
    "bf16_sitofp_i64_through_f32": Case(  # 2^62 + 2^54 + 2^37: the f32 ulp is 2^39, so f32 gives
        # 2^62 + 2^54, a bf16 tie (ulp 2^55) that goes to the even 2^62
        "arith.sitofp %a : i64 to bf16",
        (("i64", 2**62 + 2**54 + 2**37),),
        "bf16",
        2.0**62,
    ),
    "bf16_uitofp": Case(  # i32 -1 is 2^32 - 1 unsigned: f32 rounds it to 2^32
        "arith.uitofp %a : i32 to bf16", (("i32", -1),), "bf16", 2.0**32
    ),
    "bf16_fptosi": Case("arith.fptosi %a : bf16 to i32", (("bf16", -3.5),), "i32", -3),
    "bf16_fptosi_nan": Case("arith.fptosi %a : bf16 to i8", (("bf16", NAN),), "i8", 0),
    "bf16_bitcast": Case("arith.bitcast %a : bf16 to i16", (("bf16", 1.0),), "i16", 0x3F80),
    "bf16_bitcast_from_int": Case(  # 0x4049 = 2^1 * (1 + 0x49/128) = 3.140625
        "arith.bitcast %a : i16 to bf16", (("i16", 0x4049),), "bf16", 3.140625
    ),
    "bf16_isnormal_subnormal": Case("math.isnormal %a : bf16", (("bf16", 2.0**-130),), "i1", False),
    # f32: exact where a detour through f64 would round twice
    "f32_fma_single_rounding": Case(  # (1 + 2^-12)^2 + 2^-80 = 1 + 2^-11 + 2^-24 + 2^-80: just
        # past the tie between 1 + 2^-11 and 1 + 2^-11 + 2^-23 (rounded to f64 first, the
        # 2^-80 would vanish and the tie go down)
        "math.fma %a, %b, %c : f32",
        (("f32", 1 + 2**-12), ("f32", 1 + 2**-12), ("f32", 2.0**-80)),
        "f32",
        1 + 2**-11 + 2**-23,
    ),
    "f32_sitofp_i64_single_rounding": Case(  # 2^62 + 2^38 + 1: past the tie (the f32 ulp is
        # 2^39), so 2^62 + 2^39; through f64 the +1 is lost and the tie goes to 2^62
        "arith.sitofp %a : i64 to f32",
        (("i64", 2**62 + 2**38 + 1),),
        "f32",
        2.0**62 + 2.0**39,
    ),
    # f16: LLVM computes fma in f64 and rounds the double to half
    "f16_fma_rounds_in_f64": Case(  # 1.5 (1 + 2^-10) - 2^-24 = 1.5 + 2^-10 + 2^-11 - 2^-24: just
        # below the tie between 1.5 + 2^-10 and 1.5 + 2^-9; f64 keeps the -2^-24 (an f32 fma
        # would land on the tie and give 1.5 + 2^-9)
        "math.fma %a, %b, %c : f16",
        (("f16", 1.5), ("f16", 1 + 2**-10), ("f16", -(2.0**-24))),
        "f16",
        1.5 + 2**-10,
    ),
    # tf32: p = 11, ulp(1) = 2^-10, f32's exponent range
    "tf32_add_tie_to_even": Case(
        "arith.addf %a, %b : tf32", (("tf32", 1.0), ("tf32", 2**-11)), "tf32", 1.0
    ),
    "tf32_mul_tie_up_to_even": Case(  # 3 (1 + 2^-10) = 3 + 2^-9 + 2^-10: tie between 3 + 2^-9
        # (odd) and 3 + 2^-8 (ulp in [2, 4) is 2^-9)
        "arith.mulf %a, %b : tf32",
        (("tf32", 3.0), ("tf32", 1 + 2**-10)),
        "tf32",
        3 + 2**-8,
    ),
    "tf32_truncf_above_tie": Case(
        "arith.truncf %a : f32 to tf32", (("f32", 1 + 2**-11 + 2**-20),), "tf32", 1 + 2**-10
    ),
    "tf32_underflow_tie_to_zero": Case(  # 2^-137 is half the smallest subnormal 2^-136: 0
        "arith.mulf %a, %b : tf32", (("tf32", 2.0**-126), ("tf32", 2.0**-11)), "tf32", 0.0
    ),
    "tf32_subnormal": Case(  # 2^-131 is a multiple of 2^-136: exact
        "arith.mulf %a, %b : tf32", (("tf32", 2.0**-126), ("tf32", 2.0**-5)), "tf32", 2.0**-131
    ),
    "tf32_bitcast": Case(  # sign 0, exponent 127 in bits 17..10, fraction 0
        "arith.bitcast %a : tf32 to i19", (("tf32", 1.0),), "i19", 127 << 10
    ),
    # f80: p = 64
    "f80_keeps_64_bits": Case(  # (1 + 2^-63) - 1 = 2^-63 (in f64, 1 + 2^-63 is 1)
        "arith.subf %a, %b : f80", (("f80", L(1) + L(2.0**-63)), ("f80", L(1))), "f80", L(2.0**-63)
    ),
    "f80_add_tie_to_even": Case(
        "arith.addf %a, %b : f80", (("f80", L(1)), ("f80", L(2.0**-64))), "f80", L(1)
    ),
    "f80_fma_single_rounding": Case(  # (1 + 2^-40)^2 - 1 = 2^-39 + 2^-80 exactly (42 bits);
        # a separate multiply would lose the 2^-80
        "math.fma %a, %b, %c : f80",
        (("f80", L(1) + L(2.0**-40)), ("f80", L(1) + L(2.0**-40)), ("f80", L(-1))),
        "f80",
        L(2.0**-39) + L(2.0**-80),
    ),
    "f80_sitofp_exact": Case(
        "arith.sitofp %a : i64 to f80", (("i64", 2**63 - 1),), "f80", L(2**63 - 1)
    ),
    "f80_fptosi_exact": Case(  # 2^53 + 3.5 truncates to 2^53 + 3 (through f64 it would be 2^53 + 4)
        "arith.fptosi %a : f80 to i64", (("f80", L(2**53) + L(3.5)),), "i64", 2**53 + 3
    ),
    "f80_truncf_f16_single_rounding": Case(  # 1 + 2^-11 + 2^-60: past the f16 tie (numpy's own
        # cast would round to f64 first, losing the 2^-60, and give 1)
        "arith.truncf %a : f80 to f16",
        (("f80", L(1) + L(2.0**-11) + L(2.0**-60)),),
        "f16",
        1 + 2**-10,
    ),
    "f80_truncf_overflow": Case(  # 10^600 is finite in f80, infinite in f64
        "arith.truncf %a : f80 to f64", (("f80", L(1e300) * L(1e300)),), "f64", INF
    ),
    # f8E4M3FN: bias 7, p = 4, largest 448 = 1.75 * 2^8, no infinity, NaN = S.1111.111
    "e4m3fn_overflow_is_nan": Case(  # 480 is past 448 + half an ulp (464)
        "arith.addf %a, %b : f8E4M3FN", (("f8E4M3FN", 448.0), ("f8E4M3FN", 32.0)), "f8E4M3FN", NAN
    ),
    "e4m3fn_tie_at_max": Case(  # 464: tie between 448 (even) and the NaN code
        "arith.addf %a, %b : f8E4M3FN", (("f8E4M3FN", 448.0), ("f8E4M3FN", 16.0)), "f8E4M3FN", 448.0
    ),
    "e4m3fn_tie_to_even": Case(  # 1.0625 = 1 + half an ulp (2^-3): 1
        "arith.addf %a, %b : f8E4M3FN", (("f8E4M3FN", 1.0), ("f8E4M3FN", 0.0625)), "f8E4M3FN", 1.0
    ),
    "e4m3fn_underflow_tie": Case(  # 2^-10 is half the smallest subnormal 2^-9: tie, 0
        "arith.mulf %a, %b : f8E4M3FN", (("f8E4M3FN", 2.0**-9), ("f8E4M3FN", 0.5)), "f8E4M3FN", 0.0
    ),
    "e4m3fn_truncf_inf_is_nan": Case(
        "arith.truncf %a : f32 to f8E4M3FN", (("f32", INF),), "f8E4M3FN", NAN
    ),
    "e4m3fn_isnormal_subnormal": Case(  # 2^-9 is a subnormal of the type (normal in f32)
        "math.isnormal %a : f8E4M3FN", (("f8E4M3FN", 2.0**-9),), "i1", False
    ),
    "e4m3fn_uitofp": Case(  # 255: neighbours 240 and 256 (ulp 16 in [128, 256)): 256
        "arith.uitofp %a : i8 to f8E4M3FN", (("i8", -1),), "f8E4M3FN", 256.0
    ),
    "e4m3fn_fptosi_nan": Case("arith.fptosi %a : f8E4M3FN to i32", (("f8E4M3FN", NAN),), "i32", 0),
    # f8E5M2: IEEE, bias 15, p = 3, largest 57344 = 1.75 * 2^15
    "e5m2_overflow_inf": Case(
        "arith.mulf %a, %b : f8E5M2", (("f8E5M2", 57344.0), ("f8E5M2", 2.0)), "f8E5M2", INF
    ),
    "e5m2_tie_at_max_to_inf": Case(  # 61440 = 57344 + half an ulp (8192): tie; 57344 is odd
        "arith.addf %a, %b : f8E5M2", (("f8E5M2", 57344.0), ("f8E5M2", 4096.0)), "f8E5M2", INF
    ),
    "e5m2_sitofp": Case(  # 1000: neighbours 896 and 1024 (ulp 128): 1024
        "arith.sitofp %a : i32 to f8E5M2", (("i32", 1000),), "f8E5M2", 1024.0
    ),
    # f8E4M3: IEEE, bias 7, largest 240
    "e4m3_overflow_inf": Case(  # 256 is past 240 + 8
        "arith.addf %a, %b : f8E4M3", (("f8E4M3", 240.0), ("f8E4M3", 16.0)), "f8E4M3", INF
    ),
    # f8E3M4: IEEE, bias 3, p = 5, largest 15.5
    "e3m4_precision": Case(  # 1 + 2^-4 is exact with 4 fraction bits
        "arith.addf %a, %b : f8E3M4", (("f8E3M4", 1.0), ("f8E3M4", 0.0625)), "f8E3M4", 1.0625
    ),
    "e3m4_tie_at_max_to_inf": Case(  # 15.75: tie between 15.5 (odd) and 16 (infinity)
        "arith.addf %a, %b : f8E3M4", (("f8E3M4", 15.5), ("f8E3M4", 0.25)), "f8E3M4", INF
    ),
    # f8E4M3FNUZ: bias 8, no infinity, no -0, NaN = 0x80, largest 240
    "e4m3fnuz_negf_zero": Case(
        "arith.negf %a : f8E4M3FNUZ", (("f8E4M3FNUZ", 0.0),), "f8E4M3FNUZ", 0.0
    ),
    "e4m3fnuz_negative_underflow": Case(  # -2^-12 rounds to zero, which has no sign here
        "arith.mulf %a, %b : f8E4M3FNUZ",
        (("f8E4M3FNUZ", -(2.0**-10)), ("f8E4M3FNUZ", 0.25)),
        "f8E4M3FNUZ",
        0.0,
    ),
    "e4m3fnuz_overflow_is_nan": Case(
        "arith.mulf %a, %b : f8E4M3FNUZ",
        (("f8E4M3FNUZ", 240.0), ("f8E4M3FNUZ", 2.0)),
        "f8E4M3FNUZ",
        NAN,
    ),
    # f8E5M2FNUZ: bias 16
    "e5m2fnuz_zero_by_zero": Case(
        "arith.divf %a, %b : f8E5M2FNUZ",
        (("f8E5M2FNUZ", 0.0), ("f8E5M2FNUZ", 0.0)),
        "f8E5M2FNUZ",
        NAN,
    ),
    # f8E4M3B11FNUZ: bias 11, largest 30, smallest subnormal 2^-13
    "e4m3b11_tie_at_max_is_nan": Case(  # 31: tie between 30 (odd) and 32 (out of range)
        "arith.addf %a, %b : f8E4M3B11FNUZ",
        (("f8E4M3B11FNUZ", 30.0), ("f8E4M3B11FNUZ", 1.0)),
        "f8E4M3B11FNUZ",
        NAN,
    ),
    "e4m3b11_smallest": Case(
        "arith.mulf %a, %b : f8E4M3B11FNUZ",
        (("f8E4M3B11FNUZ", 2.0**-10), ("f8E4M3B11FNUZ", 0.125)),
        "f8E4M3B11FNUZ",
        2.0**-13,
    ),
    # f8E8M0FNU: unsigned powers of two 2^-127 .. 2^127, NaN = 0xFF, no zero
    "e8m0_mul": Case(
        "arith.mulf %a, %b : f8E8M0FNU", (("f8E8M0FNU", 2.0), ("f8E8M0FNU", 4.0)), "f8E8M0FNU", 8.0
    ),
    "e8m0_rounds_half_up": Case(  # 3 = 1.5 * 2: ml_dtypes rounds a significand >= 1.5 up: 4
        "arith.truncf %a : f32 to f8E8M0FNU", (("f32", 3.0),), "f8E8M0FNU", 4.0
    ),
    "e8m0_rounds_down": Case(
        "arith.truncf %a : f32 to f8E8M0FNU", (("f32", 2.9),), "f8E8M0FNU", 2.0
    ),
    "e8m0_negative_is_nan": Case(
        "arith.negf %a : f8E8M0FNU", (("f8E8M0FNU", 2.0),), "f8E8M0FNU", NAN
    ),
    "e8m0_zero_is_nan": Case(
        "arith.subf %a, %b : f8E8M0FNU", (("f8E8M0FNU", 2.0), ("f8E8M0FNU", 2.0)), "f8E8M0FNU", NAN
    ),
    "e8m0_smallest": Case(  # the code 0 is 2^-127
        "arith.extf %a : f8E8M0FNU to f32", (("f8E8M0FNU", 2.0**-127),), "f32", 2.0**-127
    ),
    # f4E2M1FN: 0, 0.5, 1, 1.5, 2, 3, 4, 6 and negatives; no infinity, no NaN
    "e2m1_saturates": Case(  # 7 is past 6: no infinity, the largest value
        "arith.addf %a, %b : f4E2M1FN", (("f4E2M1FN", 6.0), ("f4E2M1FN", 1.0)), "f4E2M1FN", 6.0
    ),
    "e2m1_tie_to_even": Case(  # 2.5: tie between 2 (even) and 3
        "arith.addf %a, %b : f4E2M1FN", (("f4E2M1FN", 2.0), ("f4E2M1FN", 0.5)), "f4E2M1FN", 2.0
    ),
    "e2m1_negative_tie": Case(  # -2.5: tie, -2
        "arith.subf %a, %b : f4E2M1FN", (("f4E2M1FN", 1.5), ("f4E2M1FN", 4.0)), "f4E2M1FN", -2.0
    ),
    "e2m1_invalid_is_plus_zero": Case(  # no NaN: ml_dtypes gives a NaN's opposite-signed zero,
        # and x86's 0/0 is a negative NaN
        "arith.divf %a, %b : f4E2M1FN",
        (("f4E2M1FN", 0.0), ("f4E2M1FN", 0.0)),
        "f4E2M1FN",
        0.0,
    ),
    "e2m1_bitcast": Case(  # -6 is S=1, E=11, M=1: 0b1111, -1 as i4
        "arith.bitcast %a : f4E2M1FN to i4", (("f4E2M1FN", -6.0),), "i4", -1
    ),
    # f6E2M3FN: bias 1, largest 7.5; f6E3M2FN: bias 3, largest 28, smallest subnormal 2^-4
    "e2m3_saturates": Case(
        "arith.addf %a, %b : f6E2M3FN", (("f6E2M3FN", 7.5), ("f6E2M3FN", 0.5)), "f6E2M3FN", 7.5
    ),
    "e2m3_precision": Case(
        "arith.addf %a, %b : f6E2M3FN", (("f6E2M3FN", 1.0), ("f6E2M3FN", 0.125)), "f6E2M3FN", 1.125
    ),
    "e3m2_saturates": Case(
        "arith.mulf %a, %b : f6E3M2FN", (("f6E3M2FN", 28.0), ("f6E3M2FN", -2.0)), "f6E3M2FN", -28.0
    ),
    "e3m2_subnormal": Case(
        "arith.mulf %a, %b : f6E3M2FN", (("f6E3M2FN", 0.25), ("f6E3M2FN", 0.25)), "f6E3M2FN", 0.0625
    ),
}


def _cases_module(names: list[str], prefix: str = "case") -> str:
    """The cases as private functions ``@<prefix><k>`` and a public ``@all`` taking every
    argument and returning every result (one compilation for the whole table)."""
    functions, params, calls, results = [], [], [], []
    for k, name in enumerate(names):
        case = CASES[name]
        functions.append(case.text.replace("func.func @f(", f"func.func private @{prefix}{k}(", 1))
        args = [f"%a{k}_{j}" for j in range(len(case.args))]
        params += [f"{a}: {t}" for a, (t, _) in zip(args, case.args)]
        types = ", ".join(t for t, _ in case.args)
        calls.append(
            f"  %r{k} = func.call @{prefix}{k}({', '.join(args)}) : ({types}) -> {case.result}"
        )
        results.append((f"%r{k}", case.result))
    result_types = ", ".join(t for _, t in results)
    wrapper = (
        f"func.func @all({', '.join(params)}) -> ({result_types}) {{\n"
        + "\n".join(calls)
        + f"\n  return {', '.join(r for r, _ in results)} : {result_types}\n}}\n"
    )
    return "".join(functions) + wrapper


@pytest.fixture(scope="module")
def table() -> dict[str, dict[str, Any]]:
    """Every case's result on each backend (from one run of :func:`_cases_module`)."""
    names = sorted(CASES)
    module = affine.parse(_cases_module(names))
    values = [v for name in names for v in CASES[name].values]
    return {
        backend: dict(zip(names, run(module, *values, backend=backend)))
        for backend in ("interp", "c")
    }


@pytest.mark.parametrize("backend", ["interp", "c"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_computed(name: str, backend: str, table: dict[str, dict[str, Any]]) -> None:
    CASES[name].check(table[backend][name])


# -- the MLIR JIT ----------------------------------------------------------------------------------

# Cases the JIT computes like us (see the module docstring for the rest): bf16 lowers natively,
# f4E2M1FN and f8E8M0FNU through the emulation and expansion passes below.
JIT_NATIVE = sorted(
    {n for n in CASES if n.startswith("bf16_")}
    - {
        "bf16_subnormal_result",  # flushed to zero where vcvtneps2bf16 rounds
        "bf16_isnormal_subnormal",  # math.isnormal has no LLVM lowering
        "bf16_fptosi_nan",  # poison in LLVM
    }
    | {"f16_fma_rounds_in_f64", "f32_fma_single_rounding", "f32_sitofp_i64_single_rounding"}
)
JIT_EXPANDED = ["e2m1_bitcast", "e2m1_saturates", "e8m0_mul", "e8m0_rounds_down"]
EXPAND_PASSES = (
    "-arith-emulate-unsupported-floats=source-types=f4E2M1FN,f8E8M0FNU target-type=f32",
    "-arith-expand=include-f4e2m1=true include-f8e8m0=true",
)


def _encoding(t: str, x: Any) -> int:
    """The bits of a value (or a Python int of an integer type) as the JIT prints them."""
    info = info_of(t)
    if info.kind == "float":
        return float_bits(x, info)
    return int(x) & ((1 << info.width) - 1)


def _jit_bits(
    names: list[str], passes: tuple[str, ...], mlir_opt: str, mlir_runner: str
) -> list[int]:
    """Each case's result bits from the MLIR JIT: the cases as functions called from a
    ``@main`` with constant arguments, printing each result's encoding as an i64."""
    functions, main = [], ["func.func @main() {"]
    for k, name in enumerate(names):
        case = CASES[name]
        text = case.text.replace("func.func @f(", f"func.func @case{k}(", 1)
        functions.append(text.replace(" {\n", ' attributes {passthrough = ["noinline"]} {\n', 1))
        args = []
        for j, (t, v) in enumerate(case.args):
            bits = _encoding(t, scalar_argument(mlir_type(t), v))
            main.append(
                f"  %a{k}_{j} = arith.constant {bits if t.startswith('i') else hex(bits)} : {t}"
            )
            args.append(f"%a{k}_{j}")
        types = ", ".join(t for t, _ in case.args)
        main.append(f"  %r{k} = func.call @case{k}({', '.join(args)}) : ({types}) -> {case.result}")
        width = info_of(case.result).width
        r = f"%r{k}"
        if info_of(case.result).kind == "float":
            main.append(f"  %b{k} = arith.bitcast {r} : {case.result} to i{width}")
            r = f"%b{k}"
        if width < 64:
            main.append(f"  %x{k} = arith.extui {r} : i{width} to i64")
            r = f"%x{k}"
        main.append(f"  vector.print {r} : i64")
    text = "\n".join(functions) + "\n".join([*main, "  return", "}"]) + "\n"
    if passes:
        text = _tool([mlir_opt, *passes, "-"], text)
    lowered = _tool([mlir_opt, *MLIR_LOWERING, "-"], text)
    library = sorted(
        (Path(mlir_runner).resolve().parents[1] / "lib").glob("libmlir_c_runner_utils.so*")
    )[0]
    printed = _tool(
        [mlir_runner, "-e", "main", "-entry-point-result=void", f"-shared-libs={library}"], lowered
    )
    return [int(line) & ((1 << 64) - 1) for line in printed.split()]


def _tool(command: list[str], text: str) -> str:
    ran = subprocess.run(command, input=text, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


@pytest.mark.mlir
@pytest.mark.parametrize(
    ("names", "passes"),
    [(JIT_NATIVE, ()), (JIT_EXPANDED, EXPAND_PASSES)],
    ids=["native", "expanded"],
)
def test_cases_agree_with_the_mlir_jit(
    names: list[str],
    passes: tuple[str, ...],
    table: dict[str, dict[str, Any]],
    mlir_opt: str,
    mlir_runner: str,
) -> None:
    got = _jit_bits(names, passes, mlir_opt, mlir_runner)
    ours = [_encoding(CASES[n].result, table["interp"][n]) for n in names]
    assert got == ours, [(n, hex(g), hex(o)) for n, g, o in zip(names, got, ours) if g != o]


# -- constants, inputs, refusals ---------------------------------------------------------------------


def test_constants_keep_their_encodings() -> None:
    """Hex literals of the types the reader keeps as doubles are read as encodings, decimal
    literals are rounded to the type; both backends start from the same bits."""
    constants = [
        ("0x7E", "f8E5M2", 0x7E),  # a NaN code
        ("0x3C", "f8E5M2", 0x3C),  # 1.0
        ("1.5", "f8E4M3FN", 0x3C),  # 1.5 = 1.100 * 2^0, exponent 7: 0 0111 100
        ("0.1", "f8E4M3FN", 0x1D),  # 0.1 rounds to 0.1015625 = 1.101 * 2^-4
        ("0x1FC00", "tf32", 0x1FC00),  # 1.0
        ("0x3FE00", "tf32", 0x3FE00),  # the quiet NaN
        ("0x3FFF8000000000000001", "f80", 0x3FFF8000000000000001),  # 1 + 2^-63
        ("0.5", "f80", 0x3FFE8000000000000000),
        ("0x7FC1", "bf16", 0x7FC1),  # a NaN payload survives
        ("0.0", "f8E8M0FNU", 0x00),  # no zero: the code 0 (2^-127), as APFloat reads 0.0
    ]
    body = [f"  %c{k} = arith.constant {text} : {t}" for k, (text, t, _) in enumerate(constants)]
    types = ", ".join(t for _, t, _ in constants)
    results = ", ".join(f"%c{k}" for k in range(len(constants)))
    text = (
        f"func.func @c() -> ({types}) {{\n"
        + "\n".join(body)
        + f"\n  return {results} : {types}\n}}\n"
    )
    for backend in ("interp", "c"):
        got = run(affine.parse(text), backend=backend)
        encodings = [float_bits(v, info_of(t)) for v, (_, t, _) in zip(got, constants)]
        assert encodings == [bits for _, _, bits in constants], backend


def test_inputs_are_rounded_through_f32() -> None:
    info = info_of("bf16")
    raw = ((np.arange(40) * 7 + 13) % 17) / 17.0
    expected = encode_f32(raw.astype(np.float32), info)
    assert deterministic_values(FloatType("bf16"), 40, 1).tobytes() == expected.tobytes()
    e8m0 = resolve_function(affine.parse("func.func @f(%a: memref<64xf8E8M0FNU>) {\n  return\n}"))
    values = random_inputs(e8m0, seed=3)[0].astype(np.float32)
    assert np.all(values > 0) and np.all(np.isfinite(values))  # unsigned: drawn from (0, 1]


def test_harness_converts_through_f32() -> None:
    path = CORPUS / "kernels" / "bf16_matvec.mlir"
    text = mlir_harness(resolve_function(affine.parse(path.read_text(), str(path))))
    assert " : f64 to f32" in text and " : f32 to bf16" in text  # filling
    assert " : bf16 to f32" in text and " : f32 to f64" in text  # checksums


def test_comparisons_and_tolerances_know_the_new_types() -> None:
    a = np.array([1.0, np.nan, 2.0], dtype=ml_dtypes.bfloat16)
    assert compare_arrays(a, a.copy()) is None
    b = a.copy()
    b[2] = 3.0  # off by 1, past 20 bf16 ulps of 2
    assert compare_arrays(a, b) is not None
    # the same sum in two orders: equal within tf32's tolerance, not within f32's
    forward = "func.func @s(%x: memref<64xtf32>, %out: memref<1xtf32>) {\n  %z = arith.constant 0.0 : tf32\n  %s = affine.for %i = 0 to 64 iter_args(%a = %z) -> (tf32) {\n    %v = affine.load %x[%i] : memref<64xtf32>\n    %n = arith.addf %a, %v : tf32\n    affine.yield %n : tf32\n  }\n  affine.store %s, %out[0] : memref<1xtf32>\n  return\n}\n"
    backward = forward.replace("%x[%i]", "%x[63 - %i]")
    x = encode_f32(np.linspace(0.01, 1.0, 64, dtype=np.float32), info_of("tf32"))
    inputs = (x, np.zeros(1, np.float32))
    assert check_equivalent(affine.parse(forward), affine.parse(backward), *inputs)
    assert not check_equivalent(affine.parse(forward), affine.parse(backward), *inputs, rtol=1e-7)


@pytest.mark.parametrize("backend", ["interp", "c"])
def test_f128_is_refused_at_the_op(backend: str) -> None:
    text = "func.func @f(%x: memref<2xf32>) {\n  %c = arith.constant 1.0 : f128\n  %t = arith.truncf %c : f128 to f32\n  affine.store %t, %x[0] : memref<2xf32>\n  return\n}\n"
    with pytest.raises(ExecutionError, match=r"k\.mlir:2:8: .*'f128' cannot be executed"):
        run(affine.parse(text, "k.mlir"), np.zeros(2, np.float32), backend=backend)


def test_f80_is_refused_where_long_double_is_not_x87(monkeypatch: pytest.MonkeyPatch) -> None:
    quad = np.finfo(np.float64)  # stands for a platform whose long double is not x87

    monkeypatch.setattr(np, "finfo", lambda t: quad if t is np.longdouble else np.finfo(t))
    with pytest.raises(ExecutionError, match=r"'f80' cannot be executed here: numpy\.longdouble"):
        element_info(FloatType("f80"))


# -- every pair of 8-bit codes against ml_dtypes ----------------------------------------------------

EIGHT_BIT = [t for t in ENCODED if info_of(t).width <= 8]
PAIR_OPS = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "remf": np.fmod,
}


@pytest.mark.slow
@pytest.mark.parametrize("t", EIGHT_BIT)
def test_every_pair_of_codes_against_ml_dtypes(t: str) -> None:
    """Binary ops over every pair of codes on the C backend against numpy: the f32 result
    of the decoded operands converted by ml_dtypes (NaN signs aside, see ``_same``)."""
    info = info_of(t)
    codes = np.arange(1 << info.width, dtype=np.uint8).view(info.numpy)
    a, b = (x.reshape(-1) for x in np.meshgrid(codes, codes))
    n = len(a)
    lines = [
        f"func.func @p(%A: memref<{n}x{t}>, %B: memref<{n}x{t}>, %R: memref<{len(PAIR_OPS)}x{n}x{t}>) {{"
    ]
    lines.append(f"  affine.for %i = 0 to {n} {{")
    lines.append(f"    %a = affine.load %A[%i] : memref<{n}x{t}>")
    lines.append(f"    %b = affine.load %B[%i] : memref<{n}x{t}>")
    for k, op in enumerate(PAIR_OPS):
        lines.append(f"    %r{k} = arith.{op} %a, %b : {t}")
        lines.append(f"    affine.store %r{k}, %R[{k}, %i] : memref<{len(PAIR_OPS)}x{n}x{t}>")
    lines += ["  }", "  return", "}"]
    out = np.zeros((len(PAIR_OPS), n), dtype=info.numpy)
    run(affine.parse("\n".join(lines) + "\n"), a.copy(), b.copy(), out, backend="c")
    with np.errstate(all="ignore"):
        fa, fb = a.astype(np.float32), b.astype(np.float32)
        for k, fn in enumerate(PAIR_OPS.values()):
            expected = fn(fa, fb).astype(np.float32).astype(info.numpy)
            got, want = out[k].view(np.uint8), expected.view(np.uint8)
            bad = [
                i
                for i in np.nonzero(got != want)[0]
                if not _same(int(got[i]), int(want[i]), expected[i], info)
            ]
            assert not bad, (list(PAIR_OPS)[k], [(a[i], b[i], got[i], want[i]) for i in bad[:5]])
