"""Op semantics both backends share: integer wrap-around, the neutral elements of
reductions, and which side of a strided DMA the stride describes.

Invariant: the interpreter computes with these and the C backend emits C for the same
values, so the two agree by construction.
"""

from __future__ import annotations

from affine.exec.elements import ElementInfo
from affine.ir.types import MemRefType

MASK64 = (1 << 64) - 1


class IntOps:
    """Wrap-around and signed/unsigned views of one integer type's canonical values."""

    __slots__ = ("canon", "info", "to_s", "to_u", "width")

    def __init__(self, info: ElementInfo) -> None:
        self.info = info
        self.width = info.width
        mask = (1 << info.width) - 1
        half = 1 << (info.width - 1)

        def wrap_s(x: int) -> int:
            return ((x + half) & mask) - half

        def wrap_u(x: int) -> int:
            return x & mask

        def same(x: int) -> int:
            return x

        if info.kind == "index":
            self.canon, self.to_s, self.to_u = same, same, (lambda x: x & MASK64)
        elif info.kind == "uint":
            self.canon, self.to_s, self.to_u = wrap_u, wrap_s, same
        else:
            self.canon, self.to_s, self.to_u = wrap_s, same, wrap_u


# The binary arith ops both backends implement, by the part of their name after "arith.".
INT_BINARY_OPS = (
    "addi", "subi", "muli", "andi", "ori", "xori", "divsi", "divui", "remsi", "remui",
    "ceildivsi", "ceildivui", "floordivsi", "maxsi", "minsi", "maxui", "minui", "shli",
    "shrsi", "shrui",
)  # fmt: skip
FLOAT_BINARY_OPS = (
    "addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf",
)  # fmt: skip


# Neutral elements of affine.parallel reductions (MLIR's getIdentityValue).
FLOAT_IDENTITIES = {
    "addf": 0.0,
    "mulf": 1.0,
    "maximumf": -float("inf"),
    "minimumf": float("inf"),
    "maxnumf": float("nan"),
    "minnumf": float("nan"),
}


def integer_identity(kind: str, width: int) -> int:
    """The neutral element of integer reduction ``kind`` on ``width`` bits, before
    wrapping to the type (``-1`` is all ones)."""
    return {
        "addi": 0,
        "muli": 1,
        "andi": -1,
        "ori": 0,
        "xori": 0,
        "maxs": -(1 << (width - 1)),
        "mins": (1 << (width - 1)) - 1,
        "maxu": 0,
        "minu": -1,
    }[kind]


def strided_side_is_source(src: MemRefType, dst: MemRefType) -> bool:
    """The stride applies to the slower memory (the lower memory space number); the source
    when the spaces are equal or not numbered."""
    a, b = src.memory_space_number, dst.memory_space_number
    return a is None or b is None or a <= b
