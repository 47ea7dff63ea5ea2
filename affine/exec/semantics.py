"""Op semantics both backends share: integer wrap-around, the neutral elements of
reductions, which side of a strided DMA the stride describes, and the lanes vector ops
(transfers included) read and write.

Invariant: the interpreter computes with these and the C backend emits C for the same
values, so the two agree by construction.
"""

from __future__ import annotations

from typing import Any

from affine.exec.elements import ElementInfo, ExecutionError, element_info, float_from_bits
from affine.ir.attributes import DenseElementsAttr
from affine.ir.diagnostics import Location
from affine.ir.types import MemRefType, VectorType

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


# The arith op (its name after "arith.") each affine.parallel reduction kind combines with.
REDUCTION_OPS = {
    "addf": "addf", "mulf": "mulf", "maximumf": "maximumf", "minimumf": "minimumf",
    "maxnumf": "maxnumf", "minnumf": "minnumf", "addi": "addi", "muli": "muli",
    "andi": "andi", "ori": "ori", "xori": "xori", "maxs": "maxsi", "mins": "minsi",
    "maxu": "maxui", "minu": "minui",
}  # fmt: skip


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


# -- vectors ------------------------------------------------------------------------------------
#
# A vector value is its lanes in row-major order.  The geometry below says which lanes an op
# reads and writes; both backends apply the scalar semantics above lane by lane.

# vector.reduction's combining kinds: the arith op combining two lanes, for float and for
# integer elements (None where the kind does not apply to the element type).
COMBINING_OPS: dict[str, tuple[str | None, str | None]] = {
    "add": ("addf", "addi"),
    "mul": ("mulf", "muli"),
    "minui": (None, "minui"),
    "minsi": (None, "minsi"),
    "maxui": (None, "maxui"),
    "maxsi": (None, "maxsi"),
    "and": (None, "andi"),
    "or": (None, "ori"),
    "xor": (None, "xori"),
    "minnumf": ("minnumf", None),
    "maxnumf": ("maxnumf", None),
    "minimumf": ("minimumf", None),
    "maximumf": ("maximumf", None),
}


def combining_op(kind: str, is_float: bool) -> str:
    """The arith op (``addf``, ``maxsi``, ...) a ``vector.reduction`` of ``kind`` folds with.

    A reduction folds its lanes in order, starting from the accumulator when there is one
    (LLVM's ordered reductions, which MLIR lowers to without the ``reassoc`` flag), or else
    from :func:`reduction_start`."""
    name = COMBINING_OPS[kind][0 if is_float else 1]
    assert name is not None  # the verifier checked the kind against the element type
    return name


def reduction_start(kind: str, is_float: bool) -> float | None:
    """The value a ``vector.reduction`` without accumulator folds its first lane into:
    +0.0 for a float ``add`` (MLIR's neutral value, so lanes that are all -0.0 sum to
    +0.0), none otherwise (the first lane itself)."""
    return 0.0 if kind == "add" and is_float else None


def lane_offsets(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The index offsets of a vector's lanes, in row-major order."""
    lanes: list[tuple[int, ...]] = [()]
    for size in shape:
        lanes = [lane + (k,) for lane in lanes for k in range(size)]
    return lanes


def transfer_lanes(
    dims: list[int | None], shape: tuple[int, ...], rank: int
) -> list[tuple[tuple[int, ...], int]]:
    """For each lane of a transfer's vector of ``shape`` (row-major), the offsets it adds to
    the indices of a rank-``rank`` memref and its lane in the mask. ``dims[m]`` is the
    memref dimension vector dimension ``m`` runs along (None: a broadcast); the mask holds
    the lanes of the other vector dimensions in the memref's dimension order."""
    mask_dims = sorted((k for k, d in enumerate(dims) if d is not None), key=lambda k: dims[k] or 0)
    table = []
    for lane in lane_offsets(shape):
        deltas = [0] * rank
        for d, offset in zip(dims, lane):
            if d is not None:
                deltas[d] += offset
        mask_lane = 0
        for k in mask_dims:
            mask_lane = mask_lane * shape[k] + lane[k]
        table.append((tuple(deltas), mask_lane))
    return table


def broadcast_sources(source: tuple[int, ...], result: tuple[int, ...]) -> list[int]:
    """For each lane of a ``vector.broadcast`` result, the source lane it copies (a scalar
    source is the shape ``()``): the source's dims align with the result's trailing dims,
    and a dim of size 1 repeats."""
    lead = len(result) - len(source)
    picked = []
    for lane in lane_offsets(result):
        flat = 0
        for size, k in zip(source, lane[lead:]):
            flat = flat * size + (k if size != 1 else 0)
        picked.append(flat)
    return picked


def position_lanes(shape: tuple[int, ...], position: tuple[int, ...]) -> tuple[int, int]:
    """``(first, count)``: the lanes a full or partial ``vector.extract``/``insert``
    position selects (a whole sub-vector of the trailing dims is contiguous)."""
    count = 1
    for size in shape[len(position) :]:
        count *= size
    first = 0
    for size, k in zip(shape, position):
        first = first * size + k
    return first * count, count


def position_in_range(shape: tuple[int, ...], position: tuple[int, ...]) -> bool:
    return all(0 <= k < size for size, k in zip(shape, position))


def dense_lane_values(attr: DenseElementsAttr, loc: Location | None) -> list[Any]:
    """The run-time values of a ``dense<...>`` vector constant's lanes (floats from their
    exact encodings, integers canonical)."""
    t = attr.type
    if not isinstance(t, VectorType) or attr.hex is not None:
        raise ExecutionError(f"constants of type '{t}' cannot be run (only vectors)", loc)
    info = element_info(t.element_type, loc)
    count = 1
    for size in t.shape:
        count *= size
    if info.kind == "float":
        assert attr.bits is not None  # float elements always carry their encodings
        bits = list(attr.bits) * (count if len(attr.bits) == 1 else 1)
        return [float_from_bits(b, info) for b in bits]
    canon = IntOps(info).canon
    values = attr.flat_values()
    return [canon(int(v)) for v in values]
