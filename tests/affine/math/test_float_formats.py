"""Float types read and printed exactly (``affine/math/float_formats.py``, ``FloatAttr.bits``).

Tables state the math of each type; the mlir-opt cross-check prints, per type in one
mlir-opt run, every bit pattern of the types of at most 8 bits and a few thousand random
patterns and decimal literals of the wider ones (NaN payloads, infinities, subnormals and
extremes included), as scalars, dense elements, splats and dense arrays, and requires our
print to be byte-identical; the hypothesis round trip prints and reads back every type.

Two kinds of decimal literals are kept out of the scalar part of the cross-check (dense
elements hold bits and agree): a negative value of f8E8M0FNU and an infinite double
converted to a finite-only type leave mlir-opt's scalar attribute in a state with no
encoding; it prints that state (``-2.000000e+00``, ``0x0``) where we print the bits its
dense elements and ``arith.bitcast`` give (``2.000000e+00``, ``0.000000e+00``).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from conftest import run_mlir_opt
from hypothesis import given, settings
from hypothesis import strategies as st

from affine import parse
from affine.ir.attributes import DenseArrayAttr, DenseElementsAttr, FloatAttr
from affine.ir.diagnostics import ParseError
from affine.ir.types import FloatType, TensorType
from affine.math.float_formats import NAN, SEMANTICS, semantics
from affine.syntax.parser import parse_attribute, parse_module
from affine.syntax.printer import format_float, print_module

NAMES = list(SEMANTICS)


def bits_of(name: str, text: str) -> int:
    """The bits the reader gives ``text : name``."""
    attr = parse_attribute(f"{text} : {name}")
    assert isinstance(attr, FloatAttr)
    return attr.bits


# -- the types ---------------------------------------------------------------------------------

# (type, bits, exact value): the encodings of each kind of type.
DECODE = [
    ("f16", 0x3C00, 1),
    ("f16", 0x0001, Fraction(1, 2**24)),  # smallest subnormal 2**(-14-10)
    ("f16", 0x7BFF, 65504),  # largest: 1.1111111111b * 2**15
    ("bf16", 0x3F80, 1),
    ("bf16", 0x3DCD, Fraction(205, 2048)),  # 0.1 rounded: 1.1001101b * 2**-4 = 0.10009765625
    ("tf32", 0x3F800, 2**127),  # 19 bits: sign, 8-bit exponent 254 - 127, 10-bit mantissa
    ("tf32", 0x1FC00, 1),
    ("f32", 0x00000001, Fraction(1, 2**149)),
    ("f64", 0x3FF8000000000000, Fraction(3, 2)),
    ("f80", 0x3FFF8000000000000000, 1),  # explicit integer bit
    ("f80", 0x3FFF8000000000000001, 1 + Fraction(1, 2**63)),
    ("f80", 0x00000000000000000001, Fraction(1, 2**16445)),  # smallest subnormal
    ("f80", 0x00008000000000000000, Fraction(1, 2**16382)),  # pseudo-denormal: 2**-16382
    ("f128", 0x3FFF0000000000000000000000000000, 1),
    ("f128", 0x3FFF0000000000000000000000000001, 1 + Fraction(1, 2**112)),
    ("f8E5M2", 0x7B, 57344),  # largest: 1.11b * 2**15
    ("f8E5M2", 0x01, Fraction(1, 2**16)),  # subnormal 0.01b * 2**-14
    ("f8E4M3", 0x77, 240),  # largest: 1.111b * 2**7 (exponent 15 is inf/NaN)
    ("f8E3M4", 0x6F, Fraction(31, 2)),  # largest: 1.1111b * 2**3 = 15.5
    ("f8E4M3FN", 0x7E, 448),  # largest: 1.110b * 2**8 (the top exponent holds values)
    ("f8E4M3FN", 0x78, 256),
    ("f8E5M2FNUZ", 0x7F, 57344),  # bias 16: 1.11b * 2**(31-16)
    ("f8E5M2FNUZ", 0x00, 0),
    ("f8E4M3FNUZ", 0x7F, 240),  # bias 8: 1.111b * 2**(15-8)
    ("f8E4M3B11FNUZ", 0x7F, 30),  # bias 11: 1.111b * 2**(15-11)
    ("f8E4M3B11FNUZ", 0x01, Fraction(1, 2**13)),  # subnormal 0.001b * 2**-10
    ("f8E8M0FNU", 0x00, Fraction(1, 2**127)),  # no zero: code 0 is 2**-127
    ("f8E8M0FNU", 0x7F, 1),
    ("f8E8M0FNU", 0xFE, 2**127),
    ("f4E2M1FN", 0x7, 6),  # largest: 1.1b * 2**2
    ("f4E2M1FN", 0x1, Fraction(1, 2)),  # the one subnormal: 0.1b * 2**0
    ("f4E2M1FN", 0xF, -6),
    ("f6E2M3FN", 0x1F, Fraction(15, 2)),  # largest: 1.111b * 2**2
    ("f6E3M2FN", 0x1F, 28),  # largest: 1.11b * 2**4
    ("f6E3M2FN", 0x01, Fraction(1, 16)),  # subnormal 0.01b * 2**-2
]


@pytest.mark.parametrize(("name", "bits", "value"), DECODE)
def test_decode(name: str, bits: int, value: Fraction) -> None:
    assert semantics(name).value(bits) == value


# (type, bits, category): what is not a number.
SPECIALS = [
    ("f16", 0x7C00, "inf"),
    ("f16", 0xFC00, "inf"),
    ("f16", 0x7C01, NAN),  # signalling NaN, payload 1
    ("f8E5M2", 0x7C, "inf"),
    ("f8E4M3", 0x78, "inf"),
    ("f8E3M4", 0x70, "inf"),
    ("f8E4M3FN", 0x7F, NAN),  # FN: only exponent and mantissa all ones is NaN, no infinity
    ("f8E4M3FN", 0xFF, NAN),
    ("f8E5M2FNUZ", 0x80, NAN),  # FNUZ: the negative zero pattern is the one NaN
    ("f8E4M3FNUZ", 0x80, NAN),
    ("f8E4M3B11FNUZ", 0x80, NAN),
    ("f8E8M0FNU", 0xFF, NAN),
    ("f80", 0x7FFF8000000000000000, "inf"),
    ("f80", 0x7FFFC000000000000000, NAN),
    ("f80", 0x7FFF0000000000000000, NAN),  # pseudo-infinity: integer bit clear
    ("f80", 0x3FFF0000000000000001, NAN),  # unnormal: exponent set, integer bit clear
    ("tf32", 0x3FC00, "inf"),
    ("tf32", 0x3FE00, NAN),
]


@pytest.mark.parametrize(("name", "bits", "category"), SPECIALS)
def test_special_values(name: str, bits: int, category: str) -> None:
    sem = semantics(name)
    assert sem.decode(bits).category == category
    assert not sem.is_finite(bits)
    assert sem.is_nan(bits) == (category == NAN)


def test_finite_only_types_have_no_special_values() -> None:
    for name in ("f4E2M1FN", "f6E2M3FN", "f6E3M2FN"):
        sem = semantics(name)
        assert all(sem.is_finite(b) for b in range(1 << sem.width))
        with pytest.raises(ValueError):
            sem.nan()


def test_largest_values() -> None:
    largest = {
        "f16": 65504, "bf16": (2 - Fraction(1, 2**7)) * 2**127, "f8E5M2": 57344,
        "f8E4M3": 240, "f8E3M4": Fraction(31, 2), "f8E4M3FN": 448, "f8E5M2FNUZ": 57344,
        "f8E4M3FNUZ": 240, "f8E4M3B11FNUZ": 30, "f8E8M0FNU": 2**127, "f4E2M1FN": 6,
        "f6E2M3FN": Fraction(15, 2), "f6E3M2FN": 28,
    }  # fmt: skip
    for name, value in largest.items():
        sem = semantics(name)
        assert sem.value(sem.largest()) == value, name
        if sem.signed:
            assert sem.value(sem.largest(True)) == -value, name


# -- rounding ------------------------------------------------------------------------------------

# (type, exact value, bits): round to nearest, ties to even, and what each kind of type does
# with values too large or too small.
ROUND = [
    # f8E4M3FN max is 448 = 1.110b * 2**8; 480 = 1.111b * 2**8 would be the NaN pattern, so
    # 464 (halfway) rounds to the even 448, anything above rounds to NaN (no infinity).
    ("f8E4M3FN", Fraction(464), 0x7E),
    ("f8E4M3FN", Fraction(465), 0x7F),
    ("f8E4M3FN", Fraction(480), 0x7F),
    ("f8E4M3FN", Fraction(-(10**9)), 0xFF),
    ("f8E4M3FN", Fraction(5, 2), 0x42),  # 2.5 = 1.010b * 2**1
    # f8E5M2 max is 57344 = 1.11b * 2**15; 61440 is halfway to 2**16, ties to even: inf.
    ("f8E5M2", Fraction(61439), 0x7B),
    ("f8E5M2", Fraction(61440), 0x7C),
    # FNUZ overflows to its NaN and has no -0: tiny negatives round to +0.
    ("f8E5M2FNUZ", Fraction(10**6), 0x80),
    ("f8E5M2FNUZ", Fraction(-1, 10**30), 0x00),
    ("f8E4M3FNUZ", Fraction(-248), 0x80),  # halfway between 240 (odd mantissa) and 256
    ("f8E4M3FNUZ", Fraction(-247), 0xFF),  # -240
    # Finite-only types saturate at their largest value.
    ("f4E2M1FN", Fraction(10**10), 0x7),
    ("f4E2M1FN", Fraction(-7), 0xF),
    ("f4E2M1FN", Fraction(5), 0x6),  # halfway between 4 (1.0b) and 6 (1.1b): 4
    ("f4E2M1FN", Fraction(1, 4), 0x0),  # halfway between 0 and 0.5: 0
    ("f4E2M1FN", Fraction(3, 4), 0x2),  # halfway between 0.5 (0.1b) and 1 (1.0b): 1
    ("f6E2M3FN", Fraction(10**10), 0x1F),  # 7.5
    ("f6E3M2FN", Fraction(-(10**10)), 0x3F),  # -28
    # f8E8M0FNU: powers of two only; 3 is halfway between 2 and 4, and the one significand
    # bit is odd, so ties go up; no zero: values below 2**-127 give 2**-127; 2**128 is NaN.
    ("f8E8M0FNU", Fraction(3), 0x81),
    ("f8E8M0FNU", Fraction(1, 10**50), 0x00),
    ("f8E8M0FNU", Fraction(2**128), 0xFF),
    # f16: 65520 is halfway between 65504 (odd mantissa) and 2**16: inf.
    ("f16", Fraction(65519), 0x7BFF),
    ("f16", Fraction(65520), 0x7C00),
    ("f16", Fraction(10**10), 0x7C00),
    ("f16", Fraction(1, 2**25), 0x0000),  # half the smallest subnormal: ties to even 0
    ("f16", Fraction(1, 2**25) + Fraction(1, 2**40), 0x0001),
    ("f16", Fraction(-1, 2**26), 0x8000),  # -0
    ("bf16", Fraction(1, 10), 0x3DCD),
    ("tf32", 1 + Fraction(1, 2**11), 0x1FC00),  # halfway: the even neighbour 1.0
    ("tf32", 1 + Fraction(3, 2**11), 0x1FC02),  # halfway: the even neighbour 1 + 2**-9
    ("f32", Fraction(1, 10), 0x3DCCCCCD),
    ("f80", 1 + Fraction(1, 2**63), 0x3FFF8000000000000001),
    ("f80", 1 + Fraction(1, 2**64), 0x3FFF8000000000000000),  # halfway: even
    ("f80", Fraction(1, 2**16446), 0x0),  # half the smallest subnormal
    ("f80", Fraction(3, 2**16447), 0x1),
    ("f128", Fraction(1, 10), 0x3FFB999999999999999999999999999A),
]


@pytest.mark.parametrize(("name", "value", "bits"), ROUND)
def test_round_exact_values(name: str, value: Fraction, bits: int) -> None:
    assert semantics(name).from_fraction(value) == bits


def test_decimal_text_rounds_once_and_literals_go_through_a_double() -> None:
    """The printer's read-back check rounds decimal text once (APFloat's convertFromString);
    the reader, like mlir-opt's, reads a literal as a double and rounds that to the type.
    1.00390625 is halfway between the bf16 values 1 and 1 + 2**-7: a hair above it rounds
    up, but the double nearest that text is the halfway point itself, which rounds to even."""
    bf16 = semantics("bf16")
    text = "1.00390625000000000001"
    assert bf16.from_decimal(text) == 0x3F81
    assert bf16.from_double(float(text)) == 0x3F80
    assert bits_of("bf16", text) == 0x3F80
    # f80 literals are doubles first: the 20 digits of 1 + 2**-63 read as 1.
    assert bits_of("f80", "1.00000000000000000011") == 0x3FFF8000000000000000
    assert semantics("f80").from_decimal("1.00000000000000000011") == 0x3FFF8000000000000001


# (type, literal, bits): decimal literals as the reader rounds them (as mlir-opt does).
LITERALS = [
    ("f8E4M3FN", "2.5", 0x42),
    ("f8E4M3FN", "480.0", 0x7F),  # NaN: no infinity
    ("f8E4M3FN", "-1.0e400", 0xFF),  # the double is -inf: NaN of its sign
    ("f16", "1.0e10", 0x7C00),  # inf
    ("f64", "1.0e400", 0x7FF0000000000000),  # inf
    ("f64", "1.0e-400", 0x0),
    ("bf16", "0.1", 0x3DCD),
    ("f8E5M2", "2.5", 0x41),
    ("f8E4M3FNUZ", "-0.0", 0x00),  # no -0
    ("f8E8M0FNU", "0.0", 0x00),  # no 0: 2**-127
    ("f8E8M0FNU", "1.0e400", 0xFF),
    ("f6E2M3FN", "1.0e10", 0x1F),  # saturates
    ("f4E2M1FN", "-1.0e10", 0xF),
    ("f80", "1.5", 0x3FFFC000000000000000),
    ("f80", "0.1", 0x3FFBCCCCCCCCCCCCD000),  # the double 0.1, exactly
    ("f128", "1.0e4000", 0x7FFF0000000000000000000000000000),  # the double is inf
    # States with no encoding get the bits mlir-opt's dense elements and bitcast give: a
    # negative f8E8M0FNU value or'ed into the top bit, an infinity in a finite-only type 0.
    ("f8E8M0FNU", "-2.0", 0x80),
    ("f8E8M0FNU", "-1.0", 0xFF),
    ("f4E2M1FN", "1.0e400", 0x0),
    ("f4E2M1FN", "-1.0e400", 0x8),
]


@pytest.mark.parametrize(("name", "text", "bits"), LITERALS)
def test_decimal_literals(name: str, text: str, bits: int) -> None:
    assert bits_of(name, text) == bits


def test_double_conversion_keeps_nan_payloads_quiet() -> None:
    """APFloat's convert keeps a NaN's top payload bits and makes it quiet (Python floats
    cannot hold signalling NaNs)."""
    nan = struct_double(0x7FFC000000000005)
    assert semantics("f32").from_double(nan) == 0x7FE00000
    assert semantics("f64").from_double(nan) == 0x7FFC000000000005
    assert semantics("f8E5M2").from_double(nan) == 0x7F
    assert semantics("f80").from_double(struct_double(0xFFF8000000000001)) == (
        0xFFFFC000000000000800
    )
    assert semantics("f8E4M3FN").from_double(math.nan) == 0x7F
    assert semantics("f8E5M2FNUZ").from_double(-math.nan) == 0x80


def struct_double(bits: int) -> float:
    import struct

    return struct.unpack("<d", struct.pack("<Q", bits))[0]


# -- text ------------------------------------------------------------------------------------------

# (type, bits, precision, max_padding, truncate_zero, text): APFloat's toString.
TO_STRING = [
    ("f32", 0x3F800000, 6, 0, False, "1.000000e+00"),
    ("f32", 0x3DCCCCCD, 0, 3, True, "0.100000001"),  # 2 + 24*59/196 = 9 digits
    ("f64", 0x419D6F3454000000, 0, 3, True, "123456789"),  # no '.': mlir-opt prints hex
    ("f64", 0x4415AF1D78B58C40, 0, 3, True, "1.0E+20"),
    ("f64", 0x8000000000000000, 6, 0, False, "-0.000000e+00"),
    ("f64", 0x0, 0, 3, True, "0"),
    ("f64", 0x0, 0, 0, True, "0.0E+0"),
    ("f64", 0x3F1A36E2EB1C432D, 0, 3, True, "1.0E-4"),  # more than 3 zeros after the point
    ("f64", 0x3F50624DD2F1A9FC, 0, 3, True, "0.001"),
    # 2**-127 is 5.8774717...e-39, but APFloat first drops the digits a 1-bit significand
    # cannot show (to 587747), then rounds what is left half up: 5.877470.
    ("f8E8M0FNU", 0x00, 6, 0, False, "5.877470e-39"),
    ("f8E8M0FNU", 0x00, 0, 3, True, "5.9E-39"),  # 2 + 1*59/196 = 2 digits, from 587
    ("f80", 0x3FFBCCCCCCCCCCCCD000, 0, 3, True, "0.100000000000000005551"),
    ("f80", 0x3FFF8000000000000001, 0, 3, True, "1.00000000000000000011"),
    (
        "f128",
        0x7FFEFFFFFFFFFFFFFFFFFFFFFFFFFFFF,
        0,
        3,
        True,
        "1.18973149535723176508575932662800702E+4932",
    ),
    ("f16", 0x7C00, 6, 0, False, "+Inf"),
    ("f16", 0x7E00, 6, 0, False, "NaN"),
    ("f4E2M1FN", 0x3, 6, 0, False, "1.500000e+00"),
]


@pytest.mark.parametrize(("name", "bits", "precision", "padding", "truncate", "text"), TO_STRING)
def test_to_string(
    name: str, bits: int, precision: int, padding: int, truncate: bool, text: str
) -> None:
    assert semantics(name).to_string(bits, precision, padding, truncate) == text


# (type, bits, printed): mlir-opt's print of an attribute value.
PRINT = [
    ("f32", 0x3F800000, "1.000000e+00"),
    ("f32", 0x3DCCCCCD, "1.000000e-01"),
    ("f64", 0x3FB999999999999A, "1.000000e-01"),
    ("f64", 0x3FBF9ADD37C1AA2E, "0.12345678912394284"),  # 6 digits lose it: the long form
    ("f64", 0x419D6F3454000000, "0x419D6F3454000000"),  # the long form has no '.'
    ("f16", 0x7C01, "0x7C01"),  # NaN payloads are kept
    ("f16", 0xFC00, "0xFC00"),
    ("f8E5M2", 0x7E, "0x7E"),
    ("f8E4M3FN", 0xFF, "0xFF"),
    ("f8E5M2FNUZ", 0x80, "0x80"),
    ("f8E8M0FNU", 0xFF, "0xFF"),
    ("f8E8M0FNU", 0x00, "5.877470e-39"),
    ("tf32", 0x3F800, "1.701410e+38"),
    ("tf32", 0x3FE01, "0x3FE01"),
    ("bf16", 0x3DCD, "1.000980e-01"),
    ("f80", 0x3FFF8000000000000001, "1.00000000000000000011"),
    ("f80", 0x7FFFC000000000000000, "0x7FFFC000000000000000"),
    ("f80", 0x401CEB79A2A000000000, "0x401CEB79A2A000000000"),  # 123456789
    ("f128", 0x3FFB999999999999A000000000000000, "0.100000000000000005551115123125782702"),
]


@pytest.mark.parametrize(("name", "bits", "text"), PRINT)
def test_print(name: str, bits: int, text: str) -> None:
    t = FloatType(name)
    assert format_float(bits, t) == text
    assert str(FloatAttr.from_bits(bits, t)) == f"{text} : {name}"


def test_f64_type_is_elided_unless_hex() -> None:
    attr = parse_attribute("[2.5, 0x7FF8000000000001 : f64]")
    assert str(attr) == "[2.500000e+00, 0x7FF8000000000001 : f64]"


# -- the attribute ---------------------------------------------------------------------------------


def test_float_attr_holds_the_bits() -> None:
    f80 = FloatType("f80")
    a = FloatAttr.from_bits(0x3FFF8000000000000001, f80)
    assert a.value == 1.0  # the nearest double
    assert a != FloatAttr(1.0, f80) and hash(a) != hash(FloatAttr(1.0, f80))
    assert FloatAttr(1.0, f80).bits == 0x3FFF8000000000000000
    # NaNs are equal when their bits are; zeros of different signs are not.
    f16 = FloatType("f16")
    assert FloatAttr.from_bits(0x7C01, f16) == FloatAttr.from_bits(0x7C01, f16)
    assert FloatAttr.from_bits(0x7C01, f16) != FloatAttr.from_bits(0x7E00, f16)
    assert math.isnan(FloatAttr.from_bits(0x7C01, f16).value)
    assert FloatAttr(0.0, f16) != FloatAttr(-0.0, f16)
    # Python floats are rounded to the type.
    assert FloatAttr(0.1, FloatType("bf16")).bits == 0x3DCD
    assert FloatAttr(0.1, FloatType("bf16")).value == 0.10009765625
    with pytest.raises(AttributeError):
        a.bits = 0  # type: ignore[misc]


def test_f80_patterns_apfloat_does_not_write_read_canonical() -> None:
    f80 = FloatType("f80")
    # pseudo-denormal: the normal of the same value
    assert FloatAttr.from_bits(0x00008000000000000001, f80).bits == 0x00018000000000000001
    # unnormal: the NaN of its sign and mantissa
    assert FloatAttr.from_bits(0xBFFF0000000000000000, f80).bits == 0xFFFF0000000000000000
    assert FloatAttr.from_bits(0x00010000000000000000, f80).bits == 0x7FFF0000000000000000


def test_dense_elements_hold_bits_and_splats() -> None:
    t = TensorType([3], FloatType("f16"))
    a = DenseElementsAttr(t, [1.0, 1.0, 1.0])
    assert a.is_splat and a.bits == (0x3C00,)
    assert str(a) == "dense<1.000000e+00> : tensor<3xf16>"
    b = parse_attribute("dense<[0x7C01, 0x7C01, 0x7C01]> : tensor<3xf16>")
    assert str(b) == "dense<0x7C01> : tensor<3xf16>"
    assert b != parse_attribute("dense<0x7E00> : tensor<3xf16>")
    c = parse_attribute("dense<[0.0, -0.0]> : tensor<2xf32>")
    assert not c.is_splat
    d = parse_attribute('dense<"0x0F1E"> : tensor<2xf4E2M1FN>')  # one byte each, low bits
    assert str(d) == "dense<[-6.000000e+00, -4.000000e+00]> : tensor<2xf4E2M1FN>"
    e = parse_attribute('dense<"0x00F80300F803"> : tensor<2xtf32>')  # three bytes each
    assert str(e) == "dense<1.701410e+38> : tensor<2xtf32>"
    f = parse_attribute("dense<[1, 1]> : tensor<2xi8>")
    assert str(f) == "dense<1> : tensor<2xi8>"
    g = DenseArrayAttr(FloatType("f8E4M3FN"), [448.0, 464.0, 480.0])
    assert g.bits == (0x7E, 0x7E, 0x7F)
    assert str(g) == "array<f8E4M3FN: 4.480000e+02, 4.480000e+02, 0x7F>"


# -- reading errors --------------------------------------------------------------------------------

# (attribute text, column, message): mlir-opt's errors for literals a float type rejects.
ERRORS = [
    ("0x1FF : f8E5M2", 1, "hexadecimal float constant out of range for type"),
    ("0x80000 : tf32", 1, "hexadecimal float constant out of range for type"),
    ("0x10 : f4E2M1FN", 1, "hexadecimal float constant out of range for type"),
    ("0x7FF0000000000000 : f32", 1, "hexadecimal float constant out of range for type"),
    ("-0x7E : f8E5M2", 2, "hexadecimal float literal should not have a leading minus"),
    ("1 : f32", 1, "unexpected decimal integer literal for a floating point value"),
    ("dense<[1.0, 0x1FF]> : tensor<2xf8E5M2>", 13, "hexadecimal float constant out of range for type"),
    ("dense<[1.0, -0x1F]> : tensor<2xf8E5M2>", 14, "hexadecimal float literal should not have a leading minus"),
    ("dense<[1.0, 1]> : tensor<2xf8E5M2>", 13, "unexpected decimal integer literal for a floating point value"),
    ("dense<1> : tensor<2xf32>", 7, "unexpected decimal integer literal for a floating point value"),
    ("dense<[[1.0, 2.0], [0x3, 4]]> : tensor<2x2xf32>", 26, "unexpected decimal integer literal for a floating point value"),
    ("dense<[(1.0, 2.0), (-0x1, 2.0)]> : tensor<2xcomplex<f32>>", 22, "hexadecimal float literal should not have a leading minus"),
    ("dense<[(1.0, 2)]> : tensor<1xcomplex<f32>>", 14, "unexpected decimal integer literal for a floating point value"),
    ("dense<[1.0, true]> : tensor<2xf32>", 13, "expected floating point literal"),
    ("dense<1.0> : tensor<2xcomplex<f32>>", 1, "parsed 1 elements, but type ('complex<f32>') expected 2 elements"),
    ("dense<[(1.0, 2.0), 3.0]> : tensor<2xcomplex<f32>>", 1, "parsed 3 elements, but type ('tensor<2xcomplex<f32>>') expected 4 elements"),
    ("array<f32: 1.0, 0x1FFFFFFFF>", 17, "hexadecimal float constant out of range for type"),
    ("array<f32: 1.0, 2>", 17, "unexpected decimal integer literal for a floating point value"),
    ("array<f32: 1.0, -0x1>", 18, "hexadecimal float literal should not have a leading minus"),
    ("array<f4E2M1FN: 1.0>", 7, "element type bitwidth must be a multiple of 8"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "column", "message"), ERRORS)
def test_literal_errors(text: str, column: int, message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_attribute(text)
    location = info.value.location
    assert location is not None and location.column == column
    assert info.value.message == message


def test_complex_literals_are_pairs_of_numbers() -> None:
    """MLIR reads a dense literal as a list of numbers: a complex type takes them in pairs,
    other types take as many as they have elements."""
    assert str(parse_attribute("dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xf32>")) == (
        "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>"
    )
    assert str(parse_attribute("dense<(1, 2)> : tensor<2xcomplex<i32>>")) == (
        "dense<(1,2)> : tensor<2xcomplex<i32>>"
    )


def test_narrow_hex_literals_are_zero_extended() -> None:
    assert bits_of("f16", "0x7E") == 0x7E
    assert bits_of("f8E5M2", "0x0000000000007E") == 0x7E


@pytest.mark.mlir
@pytest.mark.parametrize(("text", "column", "message"), ERRORS)
def test_literal_errors_match_mlir_opt(text: str, column: int, message: str, mlir_opt: str) -> None:
    source = f'"test.op"() {{a = {text}}} : () -> ()\n'
    result = run_mlir_opt(mlir_opt, source)
    assert f"<stdin>:1:{17 + column}: error: {message}" in result.stderr


# -- cross-check against mlir-opt ------------------------------------------------------------------


def _literal(x: float) -> str:
    """A double as an MLIR float literal (always with a '.')."""
    text = repr(x)
    if "." not in text:
        text = text.replace("e", ".0e") if "e" in text else text + ".0"
    return text


def _decimal_literals(rng: random.Random, count: int) -> list[str]:
    """Random decimal literals: short and long digit strings over the whole double range,
    values near the edges of the small types, and halfway points a hair off."""
    out = []
    for _ in range(count):
        k = rng.random()
        if k < 0.3:
            digits, exp = str(rng.randrange(1, 10 ** rng.randint(1, 22))), rng.randint(-60, 60)
        elif k < 0.5:
            digits, exp = str(rng.randrange(1, 10 ** rng.randint(1, 4))), rng.randint(-8, 8)
        else:
            digits, exp = str(rng.randrange(1, 10**17)), rng.randint(-330, 310)
        sign = "-" if rng.random() < 0.5 else ""
        out.append(f"{sign}{digits[0]}.{digits[1:] or '0'}e{exp}")
    edges = [
        0.5, 1.5, 2.0, 3.0, 7.5, 6.0, 28.0, 30.0, 240.0, 448.0, 464.0, 480.0, 57344.0,
        61440.0, 65504.0, 65520.0, 2.0**-149, 2.0**-127, 2.0**-128, 2.0**-24, 2.0**-25,
        3.4028235677973366e38, 1.7e308, 5e-324,
    ]  # fmt: skip
    for _ in range(count // 4):
        x = rng.choice(edges) * rng.choice([1, -1, 1.0000001, 0.9999999, 1.25, 0.75])
        if math.isfinite(x):
            out.append(_literal(x))
    return out


def _patterns(name: str, rng: random.Random, count: int) -> list[int]:
    """Every pattern of a type of at most 8 bits; otherwise random patterns and the edges:
    zeros, smallest subnormals, largest values, infinities, NaNs with payloads, all ones."""
    sem = semantics(name)
    if sem.width <= 8:
        return list(range(1 << sem.width))
    m = sem.mantissa_bits
    edges = [0, sem.sign_bit, 1, sem.sign_bit | 1, (1 << m) - 1, 1 << m, (1 << sem.width) - 1]
    edges += [sem.largest(), sem.largest(True), sem.infinity(), sem.infinity(True)]
    edges += [sem.nan(), sem.nan(True), sem.nan(False, 1), sem.nan(True, (1 << (m - 1)) | 5)]
    return edges + [rng.getrandbits(sem.width) for _ in range(count)]


def _no_encoding(name: str, text: str) -> bool:
    """Decimal literals mlir-opt's scalar attributes keep in a state with no encoding."""
    sem = semantics(name)
    if not sem.signed:
        return text.startswith("-")
    return sem.nonfinite == "finite_only" and math.isinf(float(text))


def _cross_check_module(name: str, count: int) -> str:
    rng = random.Random(name)
    hexes = ["0x%X" % b for b in _patterns(name, rng, count)]
    decimals = _decimal_literals(rng, count)
    scalars = hexes + [d for d in decimals if not _no_encoding(name, d)]
    # Elements print through the same code as scalars: every literal of the small types, a
    # sample of the wide ones (mlir-opt takes seconds over thousands of f128 values).
    elements = hexes + decimals
    if semantics(name).width > 8:
        elements = rng.sample(hexes, 256) + rng.sample(decimals, 256)
    lines = []
    for i in range(0, len(scalars), 16):
        chunk = ", ".join(f"{x} : {name}" for x in scalars[i : i + 16])
        lines.append(f'"test.c"() {{v = [{chunk}]}} : () -> ()')
    for i in range(0, len(elements), 16):
        chunk = elements[i : i + 16]
        body = ", ".join(chunk)
        lines.append(f'"test.d"() {{v = dense<[{body}]> : tensor<{len(chunk)}x{name}>}} : () -> ()')
        lines.append(f'"test.s"() {{v = dense<{chunk[0]}> : tensor<2x{name}>}} : () -> ()')
        pair = f"({chunk[0]}, {chunk[-1]})"
        lines.append(
            f'"test.z"() {{v = dense<[{pair}, {pair}]> : tensor<2xcomplex<{name}>>}} : () -> ()'
        )
        if semantics(name).width % 8 == 0:
            lines.append(f'"test.a"() {{v = array<{name}: {body}>}} : () -> ()')
    return "\n".join(lines) + "\n"


@pytest.mark.mlir
@pytest.mark.parametrize("name", NAMES)
def test_prints_exactly_as_mlir_opt(name: str, mlir_opt: str) -> None:
    text = _cross_check_module(name, 2000)
    reference = run_mlir_opt(mlir_opt, text)
    assert reference.returncode == 0, reference.stderr[:2000]
    ours = print_module(parse_module(text, f"<{name}>"))
    if ours != reference.stdout:
        pairs = zip(reference.stdout.splitlines(), ours.splitlines())
        first = next((a, b) for a, b in pairs if a != b)
        pytest.fail(f"first differing line:\nmlir-opt: {first[0]}\nours:     {first[1]}")


# -- round trip ------------------------------------------------------------------------------------


@st.composite
def typed_bits(draw) -> tuple[str, int]:
    name = draw(st.sampled_from(NAMES))
    width = semantics(name).width
    return name, draw(st.integers(0, (1 << width) - 1))


@settings(max_examples=3000, deadline=None)
@given(typed_bits())
def test_print_then_read_gives_the_same_bits(case: tuple[str, int]) -> None:
    """bits -> print -> read -> the same bits (APFloat's canonical spelling for f80).  The
    reader takes decimal literals through a double, as mlir-opt does, so an f80 or f128
    value printed in decimal comes back as the double nearest the printed text (mlir-opt
    does the same)."""
    name, bits = case
    sem = semantics(name)
    attr = FloatAttr.from_bits(bits, FloatType(name))
    text = str(attr)
    again = parse_attribute(text)
    assert isinstance(again, FloatAttr) and again.type == attr.type
    literal = text.split(" : ")[0]
    if sem.precision > 53 and not literal.startswith("0x"):
        double = float(literal)  # beyond the double range: an infinity, as in mlir-opt
        assert again.bits == sem.from_double(double)
        if math.isfinite(double) and Fraction(double) == sem.value(attr.bits):
            assert again.bits == attr.bits
    else:
        assert again.bits == attr.bits == sem.canonical(bits)
    # the nearest double
    value = sem.decode(attr.bits).value
    if isinstance(value, Fraction):
        try:
            nearest = float(value)
        except OverflowError:
            nearest = math.inf if value > 0 else -math.inf
        assert attr.value == nearest


def test_parse_print_of_a_module_with_every_type() -> None:
    lines = [f"  %c{i} = arith.constant 1.5 : {name}" for i, name in enumerate(NAMES)]
    text = "func.func @f() {\n" + "\n".join(lines) + "\n  return\n}\n"
    printed = print_module(parse(text))
    assert print_module(parse(printed)) == printed
