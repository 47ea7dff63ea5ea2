"""Exact models of MLIR's float types, as LLVM's APFloat defines them (its ``fltSemantics``).

A value of a float type *is* its bit pattern: an ``int`` below ``2**width``.  A
:class:`FloatSemantics` converts between bit patterns, exact values, Python floats and
decimal text (rounding to nearest, ties to even, with APFloat's behaviour at overflow and
underflow for each kind of type) and prints values as APFloat's ``toString`` does.

Kinds of types (``nonfinite``):

- ``ieee``: infinities and NaNs in the all-ones exponent; overflow gives an infinity (f16,
  bf16, f32, f64, f80, f128, tf32, f8E5M2, f8E4M3, f8E3M4).
- ``nan_only``: no infinity; overflow and infinities give NaN.  NaN is spelled ``all_ones``
  (exponent and mantissa all ones, either sign: f8E4M3FN, whose top exponent otherwise holds
  finite values, and f8E8M0FNU's 0xFF) or ``negative_zero`` (the sign bit alone: the "UZ"
  types, which have no -0).
- ``finite_only``: neither; overflow saturates to the largest finite value (f4E2M1FN,
  f6E2M3FN, f6E3M2FN).

f8E8M0FNU has no sign, no mantissa and no zero: pattern ``k`` is ``2**(k-127)`` and values
below ``2**-127`` round up to it.  f80 stores its integer bit: as APFloat reads x87 patterns,
pseudo-denormals are the normal numbers of the same value, and unnormals and
pseudo-infinities are NaNs (:meth:`FloatSemantics.canonical` gives the pattern APFloat
writes back).

Conversions mirror APFloat's: :meth:`~FloatSemantics.from_double` is ``convert`` from
IEEEdouble (how MLIR's reader turns a decimal literal, first read as a double, into a value
of the type), :meth:`~FloatSemantics.from_decimal` is ``convertFromString`` (one rounding,
used by MLIR's printer to check that a short decimal reads back), and
:meth:`~FloatSemantics.to_string` is ``toString`` (digit truncation and half-up rounding
included).  Where APFloat holds a state with no encoding (a negative f8E8M0FNU value, an
infinity converted to a finite-only type), the pattern is the one its ``bitcastToAPInt``
gives: the sign bit or'ed into the top bit over the encoding of the magnitude, and a signed
zero.
"""

from __future__ import annotations

import math
import re
import struct
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from fractions import Fraction

ZERO = "zero"
FINITE = "finite"
INF = "inf"
NAN = "nan"

_DECIMAL = re.compile(r"([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?")


class Decoded(NamedTuple):
    """A bit pattern taken apart: ``category`` (``zero``, ``finite``, ``inf``, ``nan``), the
    sign, and for ``finite`` the value ``significand * 2**exponent`` (``significand > 0``);
    ``payload`` is a NaN's mantissa field (f80: all 64 bits of it)."""

    category: str
    negative: bool
    significand: int = 0
    exponent: int = 0
    payload: int = 0

    @property
    def value(self) -> Fraction | float:
        """The exact value: a ``Fraction`` for zeros and finite values (a zero's sign is in
        ``negative``), ``±inf`` or a NaN of the sign as a float otherwise."""
        from fractions import Fraction

        sign = -1 if self.negative else 1
        if self.category == FINITE:
            if self.exponent >= 0:
                return Fraction(sign * (self.significand << self.exponent))
            return Fraction(sign * self.significand, 1 << -self.exponent)
        if self.category == ZERO:
            return Fraction(0)
        return math.copysign(math.inf if self.category == INF else math.nan, sign)


class FloatSemantics:
    """One float type: APFloat's ``fltSemantics`` and the encoding it implies.

    ``precision`` counts significand bits including the leading one; normal values are
    ``1.f * 2**e`` with ``min_exponent <= e <= max_exponent``; subnormals (types with a
    zero) use ``min_exponent`` and a leading zero.  The exponent field is ``e + bias`` for
    normals and 0 for subnormals and zeros."""

    __slots__ = (
        "_exact_in_double",
        "_inf",
        "_is_double",
        "_nan_at_top",
        "_struct",
        "bias",
        "explicit_integer_bit",
        "has_zero",
        "mantissa_bits",
        "max_exponent",
        "max_field",
        "min_exponent",
        "name",
        "nan_encoding",
        "nonfinite",
        "precision",
        "sign_bit",
        "signed",
        "width",
    )

    def __init__(
        self,
        name: str,
        width: int,
        precision: int,
        max_exponent: int,
        min_exponent: int,
        nonfinite: str = "ieee",
        nan_encoding: str = "ieee",
        has_zero: bool = True,
        signed: bool = True,
        explicit_integer_bit: bool = False,
        struct_code: str | None = None,
    ) -> None:
        self.name = name
        self.width = width
        self.precision = precision
        self.max_exponent = max_exponent
        self.min_exponent = min_exponent
        self.nonfinite = nonfinite
        self.nan_encoding = nan_encoding
        self.has_zero = has_zero
        self.signed = signed
        self.explicit_integer_bit = explicit_integer_bit
        self.mantissa_bits = precision - 1 + explicit_integer_bit
        self.max_field = (1 << (width - signed - self.mantissa_bits)) - 1
        # Without a zero (f8E8M0FNU) the field 0 holds the smallest normal, not subnormals.
        self.bias = (1 if has_zero else 0) - min_exponent
        # The sign of a negative value goes in the top bit, even over an unsigned type's
        # exponent (what APFloat writes for a negative f8E8M0FNU value).
        self.sign_bit = 1 << (width - 1)
        # f8E4M3FN: the top exponent holds finite values except the all-ones mantissa (NaN).
        self._nan_at_top = nan_encoding == "all_ones" and max_exponent + self.bias == self.max_field
        # Every value and every rounding midpoint is a double: decimal text may go through
        # a double first (see from_decimal) and values convert to doubles exactly.
        self._exact_in_double = (
            precision <= 52 and max_exponent <= 1023 and min_exponent - precision >= -1074
        )
        self._struct = struct.Struct(struct_code) if struct_code else None
        self._is_double = struct_code == "<d"  # Python floats are this type
        self._inf = self.infinity(False) if nonfinite == "ieee" else -1

    def __repr__(self) -> str:
        return f"FloatSemantics({self.name})"

    # -- special values -------------------------------------------------------------------------

    def zero(self, negative: bool = False) -> int:
        """The zero a result that rounds to zero becomes: -0 only where it exists; types
        without a zero give their smallest value (f8E8M0FNU: ``2**-127``)."""
        if not self.has_zero:
            return self._encode(False, 1 << (self.precision - 1), self.min_exponent)
        return self.sign_bit if negative and self.nan_encoding != "negative_zero" else 0

    def infinity(self, negative: bool = False) -> int:
        """The pattern an infinity becomes: itself, NaN in ``nan_only`` types, a signed zero
        in ``finite_only`` types (APFloat's encoding of an infinity it cannot represent)."""
        sign = self.sign_bit if negative else 0
        if self.nonfinite == "ieee":
            integer_bit = 1 << (self.precision - 1) if self.explicit_integer_bit else 0
            return sign | self.max_field << self.mantissa_bits | integer_bit
        if self.nonfinite == "nan_only":
            return self.nan(negative)
        return sign

    def nan(self, negative: bool = False, payload: int | None = None) -> int:
        """A NaN: in ``ieee`` types with mantissa ``payload`` (default the quiet NaN; f80's
        integer bit is added), otherwise the type's one NaN of that sign."""
        sign = self.sign_bit if negative else 0
        m = self.mantissa_bits
        if self.nan_encoding == "ieee":
            if payload is None:
                payload = 1 << (self.precision - 2)
            if self.explicit_integer_bit:
                payload |= 1 << (self.precision - 1)
            bits = sign | self.max_field << m | payload
            if payload >> m or not self.is_nan(bits):
                raise ValueError(f"{payload:#x} is not a NaN payload of {self.name}")
            return bits
        if self.nan_encoding == "all_ones":
            return sign | self.max_field << m | ((1 << m) - 1)
        if self.nan_encoding == "negative_zero":
            return self.sign_bit
        raise ValueError(f"{self.name} has no NaN")

    def largest(self, negative: bool = False) -> int:
        """The finite value of largest magnitude."""
        top = (1 << self.precision) - 1 - self._nan_at_top
        return self._encode(negative, top, self.max_exponent)

    def _overflow(self, negative: bool) -> int:
        """What a value too large for the type rounds to (APFloat, rounding to nearest)."""
        if self.nonfinite == "ieee":
            return self.infinity(negative)
        if self.nonfinite == "nan_only":
            return self.nan(negative)
        return self.largest(negative)

    # -- classification -------------------------------------------------------------------------

    def is_nan(self, bits: int) -> bool:
        m = self.mantissa_bits
        field = (bits >> m) & self.max_field
        frac = bits & ((1 << m) - 1)
        encoding = self.nan_encoding
        if encoding == "ieee":
            if not self.explicit_integer_bit:
                return field == self.max_field and frac != 0
            integer_bit = 1 << (self.precision - 1)
            if field == self.max_field:
                return frac != integer_bit
            return field != 0 and not frac & integer_bit  # an unnormal
        if encoding == "all_ones":
            return field == self.max_field and frac == (1 << m) - 1
        if encoding == "negative_zero":
            return bits == self.sign_bit
        return False

    def is_inf(self, bits: int) -> bool:
        return (bits & ~self.sign_bit) == self._inf

    def is_finite(self, bits: int) -> bool:
        """Zero, subnormal or normal (neither infinite nor NaN)."""
        return not (self.is_nan(bits) or self.is_inf(bits))

    # -- bits and values ------------------------------------------------------------------------

    def decode(self, bits: int) -> Decoded:
        """The value a pattern stands for (APFloat's reading of it)."""
        m = self.mantissa_bits
        negative = self.signed and bool(bits & self.sign_bit)
        frac = bits & ((1 << m) - 1)
        if self.is_nan(bits):
            return Decoded(NAN, negative, payload=frac)
        if self.is_inf(bits):
            return Decoded(INF, negative)
        field = (bits >> m) & self.max_field
        p1 = self.precision - 1
        if field == 0 and self.has_zero:  # zero, subnormal (and f80's pseudo-denormals)
            if not frac:
                return Decoded(ZERO, negative)
            return Decoded(FINITE, negative, frac, self.min_exponent - p1)
        significand = frac if self.explicit_integer_bit else frac | 1 << p1
        return Decoded(FINITE, negative, significand, field - self.bias - p1)

    def value(self, bits: int) -> Fraction | float:
        """The exact value of ``bits`` (see :attr:`Decoded.value`; ``decode`` also gives a
        NaN's payload)."""
        return self.decode(bits).value

    def _encode(self, negative: bool, q: int, e: int) -> int:
        """The pattern of ``q * 2**(e - precision + 1)`` where ``q < 2**precision`` has its
        leading bit set, or ``e`` is ``min_exponent`` (a subnormal)."""
        m = self.mantissa_bits
        field = e + self.bias if q >> (self.precision - 1) else 0
        frac = q if self.explicit_integer_bit else q & ((1 << m) - 1)
        return (self.sign_bit if negative else 0) | field << m | frac

    def canonical(self, bits: int) -> int:
        """The pattern APFloat writes back after reading ``bits`` (only f80 has other
        spellings: a pseudo-denormal becomes its normal, an unnormal the NaN of its sign
        and mantissa)."""
        if not 0 <= bits < 1 << self.width:
            raise ValueError(f"{bits:#x} is not a {self.width}-bit pattern of {self.name}")
        if not self.explicit_integer_bit:
            return bits
        d = self.decode(bits)
        if d.category == NAN:
            sign = self.sign_bit if d.negative else 0
            return sign | self.max_field << self.mantissa_bits | d.payload
        if d.category == FINITE:
            return self._encode(d.negative, d.significand, d.exponent + self.precision - 1)
        return bits

    def _round(self, negative: bool, num: int, den: int) -> tuple[int, bool]:
        """The pattern of ``±num/den`` (``num, den > 0``) rounded to nearest, ties to even,
        and whether the value was exactly halfway between two neighbours."""
        p = self.precision
        e = num.bit_length() - den.bit_length()  # 2**e <= num/den < 2**(e+1) after the fix
        if (num < den << e) if e >= 0 else (num << -e < den):
            e -= 1
        if e < self.min_exponent:
            e = self.min_exponent
        shift = p - 1 - e
        if shift >= 0:
            q, r = divmod(num << shift, den)
        else:
            den <<= -shift
            q, r = divmod(num, den)
        tie = 2 * r == den
        if 2 * r > den or (tie and q & 1):
            q += 1
            if q >> p:  # carried into the next binade
                q >>= 1
                e += 1
        if not q:
            return self.zero(negative), tie
        if e > self.max_exponent or (
            self._nan_at_top and e == self.max_exponent and q == (1 << p) - 1
        ):
            return self._overflow(negative), tie
        return self._encode(negative, q, e), tie

    def from_fraction(self, value: Fraction | int, negative_zero: bool = False) -> int:
        """``value`` rounded to nearest, ties to even (a zero is -0 with ``negative_zero``)."""
        if not value:
            return self.zero(negative_zero)
        num, den = value.as_integer_ratio()
        return self._round(num < 0, abs(num), den)[0]

    def from_double(self, x: float) -> int:
        """APFloat's ``convert`` of the double ``x``, rounding to nearest, ties to even: NaN
        payloads keep their top bits and become quiet; infinities as :meth:`infinity`."""
        codec = self._struct
        if codec is not None and x == x:
            try:
                return int.from_bytes(codec.pack(x), "little")
            except OverflowError:
                return self._overflow(x < 0)
        if math.isnan(x):
            negative = math.copysign(1.0, x) < 0
            if self.nan_encoding != "ieee":
                return self.nan(negative)
            payload = struct.unpack("<Q", struct.pack("<d", x))[0] & ((1 << 52) - 1)
            m = self.precision - 1
            payload = payload << (m - 52) if m >= 52 else payload >> (52 - m)
            return self.nan(negative, payload | 1 << (m - 1))
        if math.isinf(x):
            return self.infinity(x < 0)
        if not x:
            return self.zero(math.copysign(1.0, x) < 0)
        num, den = abs(x).as_integer_ratio()
        return self._round(x < 0, num, den)[0]

    def from_decimal(self, text: str) -> int:
        """APFloat's ``convertFromString`` of decimal ``text`` (``[-+]digits[.digits][e±N]``):
        one rounding to nearest, ties to even, from the exact decimal value."""
        match = _DECIMAL.fullmatch(text)
        if match is None or not (match.group(2) or match.group(3)):
            raise ValueError(f"not a decimal number: {text!r}")
        if self._is_double:  # Python's float() rounds the same way
            return self.from_double(float(text))
        sign, whole, fraction, exponent = match.groups()
        negative = sign == "-"
        fraction = fraction or ""
        digits = (whole + fraction).lstrip("0")
        if not digits:
            return self.zero(negative)
        exp10 = int(exponent or 0) - len(fraction)
        if self._exact_in_double:
            # A double is on the same side of every midpoint of this type as the exact
            # value unless it is one: then only the exact value decides.
            x = float(text)
            if x and not math.isinf(x):
                bits, tie = self._round(negative, *abs(x).as_integer_ratio())
                if not tie:
                    return bits
        magnitude = exp10 + len(digits) - 1  # 10**magnitude <= |value| < 10**(magnitude+1)
        if magnitude > 0 and 3 * magnitude >= self.max_exponent + 2:
            return self._overflow(negative)  # above 8**magnitude >= 2**(max_exponent+2)
        if magnitude < -1 and 3 * (magnitude + 1) <= self.min_exponent - self.precision - 1:
            return self.zero(negative)  # below half the smallest subnormal
        n = int(digits)
        if exp10 >= 0:
            return self._round(negative, n * 10**exp10, 1)[0]
        return self._round(negative, n, 10**-exp10)[0]

    def to_double(self, bits: int) -> float:
        """The double nearest the value of ``bits`` (ties to even; NaNs keep only the sign)."""
        codec = self._struct
        if codec is not None:
            return codec.unpack(bits.to_bytes(codec.size, "little"))[0]
        d = self.decode(bits)
        if d.category == FINITE:
            if self._exact_in_double:
                x = math.ldexp(d.significand, d.exponent)
            else:
                x = F64.to_double(F64._round(False, *_ratio(d.significand, d.exponent))[0])
            return -x if d.negative else x
        if d.category == ZERO:
            return -0.0 if d.negative else 0.0
        return d.value  # type: ignore[return-value]  # ±inf or NaN

    # -- printing -------------------------------------------------------------------------------

    def to_string(
        self, bits: int, precision: int = 0, max_padding: int = 3, truncate_zero: bool = True
    ) -> str:
        """APFloat's ``toString``: at most ``precision`` significant digits (0: enough to
        read back), scientific notation when ``max_padding`` is 0 or more than that many
        zeros would be needed, ``1.5E+10`` / ``1.0E+0`` with ``truncate_zero`` else
        ``1.500000e+10`` padded to ``precision``.  Digits beyond what the precision can show
        are first truncated, then the rest rounded half up, as APFloat does."""
        d = self.decode(bits)
        if d.category == INF:
            return "-Inf" if d.negative else "+Inf"
        if d.category == NAN:
            return "NaN"
        sign = "-" if d.negative else ""
        if d.category == ZERO:
            if max_padding:
                return sign + "0"
            if truncate_zero:
                return sign + "0.0E+0"
            return sign + "0.0" + "0" * max(precision - 1, 0) + "e+00"
        if not precision:
            # Enough digits to read the value back (Steele and White's bound).
            precision = 2 + self.precision * 59 // 196
        significand, exp = d.significand, d.exponent
        trailing = (significand & -significand).bit_length() - 1
        significand >>= trailing
        exp += trailing
        # From significand * 2**exp to significand * 10**exp.
        if exp > 0:
            significand <<= exp
            exp = 0
        elif exp < 0:
            significand *= 5**-exp
        # Drop the decimal digits the precision cannot show (196/59 overestimates log2(10)).
        active = significand.bit_length()
        required = (precision * 196 + 58) // 59
        if active > required:
            removable = (active - required) * 59 // 196
            if removable:
                significand //= 10**removable
                exp += removable
        text = str(significand)
        digits = text.rstrip("0")
        exp += len(text) - len(digits)
        digits, exp = _round_half_up(digits, exp, precision)
        return sign + _layout(digits, exp, precision, max_padding, truncate_zero)


def _ratio(significand: int, exponent: int) -> tuple[int, int]:
    """``significand * 2**exponent`` as a numerator and a denominator."""
    if exponent >= 0:
        return significand << exponent, 1
    return significand, 1 << -exponent


def _round_half_up(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """``digits * 10**exp`` (no trailing zeros) rounded half up to ``precision`` digits,
    trailing zeros dropped again."""
    if len(digits) <= precision:
        return digits, exp
    first = len(digits) - precision
    exp += first
    kept = digits[:precision]
    if digits[precision] >= "5":
        rounded = str(int(kept) + 1)
        if len(rounded) > precision:  # carried through every digit: 99.. became 100..
            return "1", exp + precision
        kept = rounded
    stripped = kept.rstrip("0")
    return stripped, exp + len(kept) - len(stripped)


def _layout(digits: str, exp: int, precision: int, max_padding: int, truncate_zero: bool) -> str:
    """``digits * 10**exp`` written out as APFloat's ``toString`` does (sign excluded)."""
    n = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        # 765e3 is 765000, but no more zeros than max_padding nor digits than the precision.
        scientific = exp > max_padding or n + exp > precision
    else:
        most_significant = exp + n - 1
        scientific = most_significant < 0 and -most_significant > max_padding
    if scientific:
        e = exp + n - 1
        fraction = digits[1:]
        if n == 1 and truncate_zero:
            fraction = "0"
        if not truncate_zero and precision > n - 1:
            fraction += "0" * (precision - n + 1)
        exp_text = str(abs(e))
        if not truncate_zero and len(exp_text) < 2:
            exp_text = "0" + exp_text
        mark = "E" if truncate_zero else "e"
        return f"{digits[0]}.{fraction}{mark}{'+' if e >= 0 else '-'}{exp_text}"
    if exp >= 0:
        return digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return f"{digits[:whole]}.{digits[whole:]}"
    return "0." + "0" * -whole + digits


def _table() -> dict[str, FloatSemantics]:
    nan_only_uz = ("nan_only", "negative_zero")  # (nonfinite, nan_encoding)
    finite = ("finite_only", "none")
    rows = [
        FloatSemantics("f16", 16, 11, 15, -14),
        FloatSemantics("bf16", 16, 8, 127, -126),
        FloatSemantics("f32", 32, 24, 127, -126, struct_code="<f"),
        FloatSemantics("f64", 64, 53, 1023, -1022, struct_code="<d"),
        FloatSemantics("f80", 80, 64, 16383, -16382, explicit_integer_bit=True),
        FloatSemantics("f128", 128, 113, 16383, -16382),
        FloatSemantics("tf32", 19, 11, 127, -126),
        FloatSemantics("f8E5M2", 8, 3, 15, -14),
        FloatSemantics("f8E4M3", 8, 4, 7, -6),
        FloatSemantics("f8E3M4", 8, 5, 3, -2),
        FloatSemantics("f8E4M3FN", 8, 4, 8, -6, "nan_only", "all_ones"),
        FloatSemantics("f8E5M2FNUZ", 8, 3, 15, -15, *nan_only_uz),
        FloatSemantics("f8E4M3FNUZ", 8, 4, 7, -7, *nan_only_uz),
        FloatSemantics("f8E4M3B11FNUZ", 8, 4, 4, -10, *nan_only_uz),
        FloatSemantics(
            "f8E8M0FNU", 8, 1, 127, -127, "nan_only", "all_ones", has_zero=False, signed=False
        ),
        FloatSemantics("f4E2M1FN", 4, 2, 2, 0, *finite),
        FloatSemantics("f6E2M3FN", 6, 4, 2, 0, *finite),
        FloatSemantics("f6E3M2FN", 6, 3, 4, -2, *finite),
    ]
    return {s.name: s for s in rows}


SEMANTICS: dict[str, FloatSemantics] = _table()
F64 = SEMANTICS["f64"]


def semantics(name: str) -> FloatSemantics:
    """The semantics of the MLIR float type ``name`` (``f32``, ``f8E4M3FN``...)."""
    return SEMANTICS[name]
