"""Helpers shared by the dialect definitions: errors, op construction, simple formats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from affine.attributes import Attribute, DenseArrayAttr, OpaqueAttr, StringAttr
from affine.diagnostics import VerifyError
from affine.ir import Operation, Region, Value
from affine.types import I32, Type

if TYPE_CHECKING:
    from affine.parser import Parser
    from affine.printer import Printer


class OpView:
    """A typed view: named access to the parts of one operation (``op`` is the wrapped op).

    Subclasses list the op names they accept in ``OP_NAMES``.
    """

    __slots__ = ("op",)
    OP_NAMES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, op: Operation) -> None:
        if self.OP_NAMES and op.name not in self.OP_NAMES:
            raise TypeError(f"expected {self.OP_NAMES[0]}, got {op.name}")
        self.op = op

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.op.name})"


def attr_value(name: str, doc: str = "") -> property:
    """A view property returning the ``.value`` of the op's (inherent or discardable) attribute."""

    def get(view: OpView) -> Any:
        return view.op.get_attr(name).value  # type: ignore[union-attr]

    return property(get, doc=doc or f"The ``{name}`` attribute's value.")


def op_error(op: Operation, message: str) -> NoReturn:
    """Raise ``'op.name' op message`` at the op's location (MLIR's emitOpError)."""
    raise VerifyError(f"'{op.name}' op {message}", op.loc)


def create(
    p: Parser,
    name: str,
    offset: int,
    operands: Sequence[Value] = (),
    result_types: Sequence[Type] = (),
    properties: dict[str, Attribute] | None = None,
    attributes: dict[str, Attribute] | None = None,
    regions: Sequence[Region] = (),
    successors=(),
) -> Operation:
    return Operation.create(
        name,
        operands,
        result_types,
        properties,
        attributes,
        list(regions),
        successors,
        p.loc(offset),
    )


def segment_sizes(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr(I32, sizes)


def segments(op: Operation, index: int) -> list[Value]:
    """Operands of segment ``index`` according to ``operandSegmentSizes``."""
    sizes = op.properties["operandSegmentSizes"].values  # type: ignore[attr-defined]
    start = sum(sizes[:index])
    return op.operands[start : start + sizes[index]]


def string_value(op: Operation, name: str) -> str | None:
    a = op.get_attr(name)
    return a.value if isinstance(a, StringAttr) else None


# -- flags attributes of arith/math (#arith.fastmath<...>, #arith.overflow<...>) ----------------

FASTMATH_NONE = OpaqueAttr("#arith.fastmath<none>")
OVERFLOW_NONE = OpaqueAttr("#arith.overflow<none>")


def parse_optional_flags(p: Parser, keyword: str, dialect_name: str) -> OpaqueAttr | None:
    """``fastmath<fast>`` / ``overflow<nsw>`` after the operands of arith/math ops."""
    if not p.at_keyword(keyword):
        return None
    start = p.start
    p.advance()
    if not p.at("<"):
        p.error(f"expected '<' after '{keyword}'")
    depth = 0
    while True:
        if p.kind == "<":
            depth += 1
        elif p.kind == ">":
            depth -= 1
            if depth == 0:
                end = p.end
                p.advance()
                break
        elif p.kind == "eof":
            p.error(f"unterminated '{keyword}<'", start)
        p.advance()
    body = p.text[start + len(keyword) : end]
    return OpaqueAttr(f"#arith.{dialect_name}{body}")


def print_flags(op: Operation, name: str, keyword: str) -> str:
    attr = op.properties.get(name)
    if not isinstance(attr, OpaqueAttr) or attr.body == "none":
        return ""
    return f" {keyword}<{attr.body}>"


def print_results_types_suffix(pr: Printer, op: Operation) -> str:
    return pr.type_list(r.type for r in op.results)
