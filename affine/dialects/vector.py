"""The ``vector`` dialect ops that register tiles and vectorised loops use: ``broadcast``,
``fma``, ``reduction``, ``extract``, ``insert`` and ``shuffle`` (MLIR 22 has no
``vector.splat``), and the memref transfers ``transfer_read``/``transfer_write`` that
mlir-opt's ``-affine-super-vectorize`` writes.

Invariant: each op reads and prints as mlir-opt 22 does and is refused with mlir-opt's
message for the usual mistakes (element types that differ, shapes that do not broadcast,
positions out of range, reduction kinds the element type does not support).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from affine.dialects.common import (
    FASTMATH_NONE,
    attribute_constraint_error,
    create,
    op_error,
    parse_enum_keywords,
    parse_optional_flags,
    print_flags,
)
from affine.dialects.format import VARIADIC, Group, define_format, same_as
from affine.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    IntegerAttr,
    OpaqueAttr,
)
from affine.ir.core import Operation, Value
from affine.ir.registry import PURE, define, define_attribute
from affine.ir.types import (
    DYNAMIC,
    I1,
    I32,
    I64,
    INDEX,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    Type,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer
from affine.syntax.reader import TokenReader

_VECTOR = (VectorType, "builtin.vector")

# vector::CombiningKind, in the enum's order (mlir-opt lists them so in its parse error).
COMBINING_KINDS = (
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or",
    "xor", "maximumf", "minimumf",
)  # fmt: skip
FLOAT_KINDS = frozenset({"minnumf", "maxnumf", "maximumf", "minimumf"})
INTEGER_KINDS = frozenset({"minui", "minsi", "maxui", "maxsi", "and", "or", "xor"})


def _parse_vector_type(p: Parser) -> VectorType:
    """A type that must be a vector (mlir-opt's error is at the type)."""
    offset = p.start
    t = p.parse_type()
    if not isinstance(t, VectorType):
        p.op_error(
            f"invalid kind of type specified: expected builtin.vector, but found '{t}'", offset
        )
    return t


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, VectorType) else t


def _vector_of(op: Operation, role: str, index: int, other: Type, pair: str) -> VectorType:
    """The type of the op's ``role`` (``operand`` or ``result``) number ``index``: a vector
    whose element type is that of ``other`` (mlir-opt's errors, naming ``pair``, otherwise)."""
    t = (op.operands if role == "operand" else op.results)[index].type
    if not isinstance(t, VectorType):
        op_error(op, f"{role} #{index} must be vector of any type values, but got '{t}'")
    if _element(other) != t.element_type:
        op_error(op, f"failed to verify that {pair} have same element type")
    return t


# -- vector.broadcast ------------------------------------------------------------------------------


def _verify_broadcast(op: Operation) -> None:
    """MLIR's isBroadcastableTo: the source's dims match the result's trailing dims or are 1."""
    source = op.operands[0].type
    result = _vector_of(op, "result", 0, source, "source operand and result")
    if not isinstance(source, VectorType):
        return
    if len(source.shape) > len(result.shape):
        op_error(op, "source rank higher than destination rank")
    trailing = result.shape[len(result.shape) - len(source.shape) :]
    for have, want in zip(source.shape, trailing):
        if have != 1 and have != want:
            op_error(op, f"dimension mismatch ({have} vs. {want})")


define_format(
    "vector.broadcast",
    "$source attr-dict `:` type($source) `to` type($vector)",
    operands=[Group("source")],
    results=[Group("vector", kind=_VECTOR)],
    verify=_verify_broadcast,
    traits=(PURE,),
)


# -- vector.fma --------------------------------------------------------------------------------------


def _verify_fma(op: Operation) -> None:
    for i, v in enumerate(op.operands):
        t = v.type
        if not isinstance(t, VectorType) or not isinstance(t.element_type, FloatType):
            op_error(op, f"operand #{i} must be vector of floating-point values, but got '{t}'")
    t = op.operands[0].type
    if any(v.type != t for v in op.operands) or op.results[0].type != t:
        op_error(op, "failed to verify that all of {lhs, rhs, acc, result} have same type")


define_format(
    "vector.fma",
    "$lhs `,` $rhs `,` $acc attr-dict `:` type($result)",
    operands=[Group(name, type=same_as("result")) for name in ("lhs", "rhs", "acc")],
    results=[Group("result", kind=_VECTOR)],
    verify=_verify_fma,
    traits=(PURE,),
)


# -- vector.reduction ----------------------------------------------------------------------------


def combining_kind(op: Operation) -> str:
    """The ``kind`` of a ``vector.reduction`` (``add``, ``maxsi``, ...)."""
    attr = op.properties.get("kind")
    assert isinstance(attr, OpaqueAttr)  # the verifier checked it
    return attr.body


def _parse_combining_kind(p: TokenReader) -> str:
    """``<add>``: a combining kind, as ``vector.reduction`` and ``#vector.kind`` write it."""
    p.expect("<")
    (word,) = parse_enum_keywords(
        p, "::mlir::vector::CombiningKind", "Vector_CombiningKindAttr", COMBINING_KINDS
    )
    p.expect(">")
    return word


define_attribute("vector.kind", lambda p: OpaqueAttr(f"#vector.kind<{_parse_combining_kind(p)}>"))


def _parse_reduction(p: Parser, offset: int) -> Operation:
    word = _parse_combining_kind(p)
    p.expect(",")
    operands = [p.parse_operand()]
    if p.accept(","):
        operands.append(p.parse_operand())
    flags = parse_optional_flags(p, "fastmath", "fastmath") or FASTMATH_NONE
    attrs = p.parse_optional_attr_dict()
    p.expect(":")
    source = _parse_vector_type(p)
    p.expect_op_keyword("into")
    result = p.parse_type()
    values = [p.resolve(operands[0], source)] + p.resolve_all(operands[1:], result)
    props: dict[str, Attribute] = {
        "fastmath": flags,
        "kind": OpaqueAttr(f"#vector.kind<{word}>"),
    }
    return create(p, "vector.reduction", offset, values, [result], props, attrs)


def _print_reduction(pr: Printer, op: Operation) -> None:
    pr.write(f" <{combining_kind(op)}>, {pr.operands(op.operands)}")
    pr.write(print_flags(op, "fastmath", "fastmath"))
    pr.write(pr.attr_dict(op.attributes, ("fastmath", "kind")))
    pr.write(f" : {pr.type(op.operands[0].type)} into {pr.type(op.results[0].type)}")


def kind_supports(kind: str, element: Type) -> bool:
    """MLIR's isSupportedCombiningKind: which element types a combining kind accepts."""
    integer = isinstance(element, (IntegerType, IndexType))
    if kind in FLOAT_KINDS:
        return isinstance(element, FloatType)
    if kind in INTEGER_KINDS:
        return integer
    return integer or isinstance(element, FloatType)


def _verify_reduction(op: Operation) -> None:
    kind = op.properties.get("kind")
    if not (
        isinstance(kind, OpaqueAttr)
        and kind.text.startswith("#vector.kind<")
        and kind.body in COMBINING_KINDS
    ):
        attribute_constraint_error(
            op, "attribute 'kind' failed to satisfy constraint: Kind of combining function"
        )
    source = op.operands[0].type
    if not isinstance(source, VectorType):
        op_error(op, f"operand #0 must be vector of any type values, but got '{source}'")
    result = op.results[0].type
    if source.element_type != result:
        op_error(op, "failed to verify that source operand and result have same element type")
    if len(op.operands) > 1 and op.operands[1].type != result:
        op_error(op, "failed to verify that dest and acc have the same type")
    if len(source.shape) > 1:
        op_error(op, f"unsupported reduction rank: {len(source.shape)}")
    if not kind_supports(kind.body, result):
        op_error(op, f"unsupported reduction type ''{result}'' for kind '{kind.body}'")


define(
    "vector.reduction",
    parse=_parse_reduction,
    print=_print_reduction,
    verify=_verify_reduction,
    properties=("fastmath", "kind"),
    traits=(PURE,),
)


# -- vector.extract / vector.insert --------------------------------------------------------------


def static_position(op: Operation) -> tuple[int, ...]:
    """The ``static_position`` of ``vector.extract``/``insert`` (``DYNAMIC`` where an index
    operand gives the position)."""
    attr = op.properties.get("static_position")
    assert isinstance(attr, DenseArrayAttr)  # the verifier checked it
    return tuple(attr.values)


def position_operands(op: Operation) -> list[Value]:
    """The index operands of the dynamic positions, in order."""
    return op.operands[1:] if op.name == "vector.extract" else op.operands[2:]


def _verify_positions(op: Operation, vector: VectorType, dest: str) -> tuple[int, ...]:
    """The checks ``vector.extract`` and ``vector.insert`` share, in mlir-opt's order (the
    attribute, the index operands, then the positions; ``dest`` is ``"dest "`` in the
    messages of ``vector.insert``)."""
    attr = op.properties.get("static_position")
    if not isinstance(attr, DenseArrayAttr) or attr.element_type != I64:
        attribute_constraint_error(
            op,
            "attribute 'static_position' failed to satisfy constraint: i64 dense array attribute",
        )
    static = tuple(attr.values)
    dynamic = position_operands(op)
    first = len(op.operands) - len(dynamic)
    for v in dynamic:
        if not isinstance(v.type, IndexType):
            op_error(op, f"operand #{first} must be variadic of index, but got '{v.type}'")
    if static.count(DYNAMIC) != len(dynamic):
        op_error(
            op,
            "mismatch between dynamic and static positions (kDynamic marker but no "
            "corresponding dynamic position) -- this can only happen due to an incorrect "
            "fold/rewrite",
        )
    if len(static) > len(vector.shape):
        op_error(op, f"expected position attribute of rank no greater than {dest}vector rank")
    return static


def _check_position_bounds(op: Operation, static: Sequence[int], vector: VectorType) -> None:
    poison = " or poison (-1)" if op.name == "vector.extract" else ""
    dest = "dest " if op.name == "vector.insert" else ""
    for k, (position, size) in enumerate(zip(static, vector.shape)):
        if position != DYNAMIC and position != -1 and not 0 <= position < size:
            op_error(
                op,
                f"expected position attribute #{k + 1} to be a non-negative integer smaller "
                f"than the corresponding {dest}vector dimension{poison}",
            )


def sub_vector_type(vector: VectorType, rank: int) -> Type:
    """What ``rank`` positions select from ``vector``: an element, or the trailing dims."""
    if rank == len(vector.shape):
        return vector.element_type
    return VectorType(vector.shape[rank:], vector.element_type, vector.scalable[rank:])


def _compatible(inferred: Type, given: Type) -> bool:
    """MLIR allows a one-element vector where an element is inferred."""
    return given == inferred or (
        isinstance(given, VectorType) and given.shape == (1,) and given.element_type == inferred
    )


def _verify_extract(op: Operation) -> None:
    result = op.results[0].type
    vector = _vector_of(op, "operand", 0, result, "operand and result")
    static = _verify_positions(op, vector, "")
    _check_position_bounds(op, static, vector)
    inferred = sub_vector_type(vector, len(static))
    if not _compatible(inferred, result):
        op_error(
            op,
            f"inferred type(s) '{inferred}' are incompatible with return type(s) of operation "
            f"'{result}'",
        )


def _verify_insert(op: Operation) -> None:
    value = op.operands[0].type
    vector = _vector_of(op, "operand", 1, value, "source operand and result")
    if op.results[0].type != vector:
        op_error(op, "failed to verify that all of {dest, result} have same type")
    static = _verify_positions(op, vector, "dest ")
    if isinstance(value, VectorType) and len(value.shape) + len(static) != len(vector.shape):
        op_error(op, "expected position attribute rank + source rank to match dest vector rank")
    if not isinstance(value, VectorType) and len(static) != len(vector.shape):
        op_error(op, "expected position attribute rank to match the dest vector rank")
    _check_position_bounds(op, static, vector)


define_format(
    "vector.extract",
    "$source `` custom<DynamicIndexList>($dynamic_position, $static_position) attr-dict `:` "
    "type($result) `from` type($source)",
    operands=[Group("source", kind=_VECTOR), Group("dynamic_position", VARIADIC, INDEX)],
    results=[Group("result")],
    verify=_verify_extract,
    properties=("static_position",),
    traits=(PURE,),
)
define_format(
    "vector.insert",
    "$valueToStore `,` $dest custom<DynamicIndexList>($dynamic_position, $static_position) "
    "attr-dict `:` type($valueToStore) `into` type($dest)",
    operands=[
        Group("valueToStore"),
        Group("dest", kind=_VECTOR),
        Group("dynamic_position", VARIADIC, INDEX),
    ],
    results=[Group("result", type=same_as("dest"))],
    verify=_verify_insert,
    properties=("static_position",),
    traits=(PURE,),
)

# -- vector.shuffle --------------------------------------------------------------------------------


def shuffle_mask(op: Operation) -> tuple[int, ...]:
    """The ``mask`` of a ``vector.shuffle``: for each result lane, the lane of the two
    operands' concatenation it copies (-1: poison)."""
    attr = op.properties.get("mask")
    assert isinstance(attr, DenseArrayAttr)  # the verifier checked it
    return tuple(attr.values)


def _parse_shuffle(p: Parser, offset: int) -> Operation:
    operands = [p.parse_operand()]
    p.expect(",")
    operands.append(p.parse_operand())
    mask = p.parse_comma_list("[", p.parse_integer)
    attrs = p.parse_optional_attr_dict()
    p.expect(":")
    first = _parse_vector_type(p)
    p.expect(",")
    second = _parse_vector_type(p)
    values = [p.resolve(operands[0], first), p.resolve(operands[1], second)]
    result = VectorType((len(mask),), first.element_type)
    props: dict[str, Attribute] = {"mask": DenseArrayAttr(I64, mask)}
    return create(p, "vector.shuffle", offset, values, [result], props, attrs)


def _print_shuffle(pr: Printer, op: Operation) -> None:
    mask = ", ".join(str(k) for k in shuffle_mask(op))
    pr.write(f" {pr.operands(op.operands)} [{mask}]")
    pr.write(pr.attr_dict(op.attributes, ("mask",)))
    pr.write(f" : {pr.type(op.operands[0].type)}, {pr.type(op.operands[1].type)}")


def _verify_shuffle(op: Operation) -> None:
    """One-dimensional shuffles (what load rotation makes), with mlir-opt's checks."""
    first, second = (v.type for v in op.operands)
    result = op.results[0].type
    for k, t in enumerate((first, second)):
        if not isinstance(t, VectorType):
            op_error(
                op, f"operand #{k} must be fixed-length vector of any type values, but got '{t}'"
            )
    assert isinstance(first, VectorType) and isinstance(second, VectorType)
    attr = op.properties.get("mask")
    if not isinstance(attr, DenseArrayAttr) or attr.element_type != I64:
        attribute_constraint_error(
            op, "attribute 'mask' failed to satisfy constraint: i64 dense array attribute"
        )
    if len(first.shape) != 1 or len(second.shape) != 1:
        op_error(op, "only shuffles of one-dimensional vectors are supported")
    if first.element_type != second.element_type or not isinstance(result, VectorType):
        op_error(op, "failed to verify that second operand v2 and result have same element type")
    mask = shuffle_mask(op)
    if result.shape != (len(mask),) or result.element_type != first.element_type:
        op_error(op, "failed to verify that result type matches the mask's length")
    total = first.shape[0] + second.shape[0]
    for k, lane in enumerate(mask):
        if lane != -1 and not 0 <= lane < total:
            op_error(op, f"mask index #{k + 1} out of range")


define(
    "vector.shuffle",
    parse=_parse_shuffle,
    print=_print_shuffle,
    verify=_verify_shuffle,
    properties=("mask",),
    traits=(PURE,),
)

# -- vector.transfer_read / vector.transfer_write ------------------------------------------------


def permutation_map(op: Operation) -> AffineMap:
    """The ``permutation_map`` of a transfer: result ``m`` is the memref dimension vector
    dimension ``m`` runs along, or the constant 0 (a broadcast: every lane reads one element)."""
    attr = op.properties.get("permutation_map")
    assert isinstance(attr, AffineMapAttr)  # the verifier checked it
    return attr.value


def transfer_dims(op: Operation) -> list[int | None]:
    """For each vector dimension of a transfer, the memref dimension its lanes run along
    (None: a broadcast)."""
    return [r.value if r.kind == "dim" else None for r in permutation_map(op).results]


def in_bounds(op: Operation) -> tuple[bool, ...]:
    """For each vector dimension of a transfer, whether its lanes are known to stay inside
    the memref (``False``: lanes past the dimension's size read the padding, or are not
    written)."""
    attr = op.properties.get("in_bounds")
    assert isinstance(attr, ArrayAttr)  # the verifier checked it
    return tuple(bool(a.value) for a in attr.elements)  # type: ignore[attr-defined]  # BoolAttrs


def transfer_parts(op: Operation) -> tuple[Value, list[Value], Value | None, Value | None]:
    """The memref, the indices, the padding (``None`` for a write) and the mask (or
    ``None``) of a ``vector.transfer_read``/``transfer_write``."""
    sizes = op.properties["operandSegmentSizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    if op.name == "vector.transfer_read":
        indices = op.operands[1 : 1 + sizes[1]]
        rest = op.operands[1 + sizes[1] :]
        return op.operands[0], indices, rest[0], (rest[1] if sizes[3] else None)
    indices = op.operands[2 : 2 + sizes[2]]
    return op.operands[1], indices, None, (op.operands[2 + sizes[2]] if sizes[3] else None)


def transfer_vector_type(op: Operation) -> Type:
    """The vector a transfer reads or writes."""
    return op.results[0].type if op.name == "vector.transfer_read" else op.operands[0].type


def mask_type(m: AffineMap, vector: VectorType) -> VectorType:
    """MLIR's inferTransferOpMaskType: one ``i1`` per transferred element, the broadcast
    dimensions dropped and the others in the memref's order."""
    ordered = sorted((r.value, size) for r, size in zip(m.results, vector.shape) if r.kind == "dim")
    return VectorType(tuple(size for _, size in ordered), I1)


def _parse_transfer(p: Parser, offset: int, read: bool) -> Operation:
    name = "vector.transfer_read" if read else "vector.transfer_write"
    stored = None
    if not read:
        stored = p.parse_operand()
        p.expect(",")
    base = p.parse_operand()
    indices = p.parse_comma_list("[", p.parse_operand)
    padding = mask = None
    if read:
        p.expect(",")
        padding = p.parse_operand()
    if p.accept(","):
        mask = p.parse_operand()
    attrs = p.parse_optional_attr_dict()
    types_at = p.start
    p.expect(":")
    first = p.parse_type()
    p.expect(",")
    second = p.parse_type()
    shaped, vector = (first, second) if read else (second, first)
    if not isinstance(shaped, MemRefType):
        p.op_error("requires memref or ranked tensor type", types_at)
    if not isinstance(vector, VectorType):
        p.op_error("requires vector type", types_at)
    if "permutation_map" not in attrs:
        if len(vector.shape) > len(shaped.shape):
            p.op_error(
                "expected a custom permutation_map when rank(source) != rank(destination)",
                types_at,
            )
        attrs["permutation_map"] = AffineMapAttr(
            AffineMap.minor_identity(len(shaped.shape), len(vector.shape))
        )
    m = attrs["permutation_map"]
    if "in_bounds" not in attrs:  # one per result of the map, as mlir-opt
        rank = m.value.num_results if isinstance(m, AffineMapAttr) else len(vector.shape)
        attrs["in_bounds"] = ArrayAttr([BoolAttr(False)] * rank)
    values = [] if stored is None else [p.resolve(stored, vector)]
    values.append(p.resolve(base, shaped))
    values += p.resolve_all(indices, INDEX)
    if padding is not None:
        values.append(p.resolve(padding, shaped.element_type))
    if mask is not None:
        if not isinstance(m, AffineMapAttr):
            p.op_error("expected the permutation_map to be an affine map", types_at)
        values.append(p.resolve(mask, mask_type(m.value, vector)))
    lead = (1, 1, len(indices)) if stored is not None else (1, len(indices), 1)
    props = {"operandSegmentSizes": DenseArrayAttr(I32, (*lead, int(mask is not None)))}
    return create(p, name, offset, values, [vector] if read else [], props, attrs)


def _print_transfer(pr: Printer, op: Operation) -> None:
    base, indices, padding, mask = transfer_parts(op)
    read = op.name == "vector.transfer_read"
    text = "" if read else f" {pr.operand(op.operands[0])},"
    text += f" {pr.operand(base)}[{pr.operands(indices)}]"
    text += "".join(f", {pr.operand(v)}" for v in (padding, mask) if v is not None)
    pr.write(text)
    shown: dict[str, Attribute] = dict(op.attributes)
    vector = transfer_vector_type(op)
    memref = base.type
    m = permutation_map(op)
    if isinstance(vector, VectorType) and isinstance(memref, MemRefType):
        if m != AffineMap.minor_identity(len(memref.shape), len(vector.shape)):
            shown["permutation_map"] = op.properties["permutation_map"]
    if any(in_bounds(op)):
        shown["in_bounds"] = op.properties["in_bounds"]
    pr.write(pr.attr_dict(shown))
    types = (memref, vector) if read else (vector, memref)
    pr.write(f" : {pr.type(types[0])}, {pr.type(types[1])}")


def _verify_transfer(op: Operation) -> None:
    """mlir-opt's verifyTransferOp, for memrefs, in its order."""
    attr = op.properties.get("in_bounds")
    if not isinstance(attr, ArrayAttr) or not all(
        isinstance(a, IntegerAttr) and a.type == I1 for a in attr.elements
    ):
        op_error(
            op, "attribute 'in_bounds' failed to satisfy constraint: 1-bit boolean array attribute"
        )
    if not isinstance(op.properties.get("permutation_map"), AffineMapAttr):
        op_error(
            op, "attribute 'permutation_map' failed to satisfy constraint: AffineMap attribute"
        )
    base, indices, padding, mask = transfer_parts(op)
    memref = base.type
    if not isinstance(memref, MemRefType):
        op_error(op, "requires source to be a memref or ranked tensor type")
    vector = transfer_vector_type(op)
    if not isinstance(vector, VectorType):
        op_error(op, f"requires a vector type, but got '{vector}'")
    for v in indices:
        if not isinstance(v.type, IndexType):
            op_error(op, f"operand must be variadic of index, but got '{v.type}'")
    if len(indices) != len(memref.shape):
        op_error(op, f"requires {len(memref.shape)} indices")
    m = permutation_map(op)
    if m.num_symbols:
        op_error(op, "requires permutation_map without symbols")
    if m.num_dims != len(memref.shape):
        op_error(
            op, "requires a permutation_map with input dims of the same rank as the source type"
        )
    if m.num_results != len(vector.shape):
        op_error(
            op, "requires a permutation_map with result dims of the same rank as the vector type"
        )
    if not m.is_projected_permutation(allow_zero_results=True):
        if any(
            r.kind not in ("dim", "const") or (r.kind == "const" and r.value != 0)
            for r in m.results
        ):
            op_error(
                op,
                "requires a projected permutation_map (at most one dim or the zero constant can "
                "appear in each result)",
            )
        op_error(
            op,
            "requires a permutation_map that is a permutation (found one dim used more than once)",
        )
    if len(in_bounds(op)) != m.num_results:
        op_error(
            op,
            f"expects the in_bounds attr of same rank as permutation_map results: affine_map<{m}> vs "
            f"inBounds of size: {len(in_bounds(op))}",
        )
    if padding is not None and padding.type != memref.element_type:
        op_error(op, "requires formal padding and source of the same elemental type")
    if mask is not None and mask.type != mask_type(m, vector):
        op_error(op, f"expects mask type consistent with permutation map: {mask_type(m, vector)}")
    if op.name == "vector.transfer_write" and any(r.kind == "const" for r in m.results):
        op_error(op, "should not have broadcast dimensions")


for _read in (True, False):
    define(
        "vector.transfer_read" if _read else "vector.transfer_write",
        parse=partial(_parse_transfer, read=_read),
        print=_print_transfer,
        verify=_verify_transfer,
        properties=("in_bounds", "operandSegmentSizes", "permutation_map"),
    )

__all__ = [
    "COMBINING_KINDS",
    "combining_kind",
    "in_bounds",
    "kind_supports",
    "mask_type",
    "permutation_map",
    "position_operands",
    "shuffle_mask",
    "static_position",
    "sub_vector_type",
    "transfer_dims",
    "transfer_parts",
    "transfer_vector_type",
]
