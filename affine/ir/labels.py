"""How reports name IR objects: by the names the source gave them.

A value is its SSA name as written (``%A``, ``%i``); a loop is its induction variable and
its position (``%i at k.mlir:4:3``); values the toolkit made, which have no written name,
are described by what they are.
"""

from __future__ import annotations

from affine.ir.core import BlockArgument, Operation, OpResult, Value


def value_label(value: Value) -> str:
    """``%A`` as written; for a value without a written name, what it is."""
    if value.name is not None:
        return value.name
    if isinstance(value, BlockArgument):
        return f"<argument #{value.index}>"
    if isinstance(value, OpResult):
        return f"<result #{value.index} of {value.owner.name}>"
    return "<value>"


def induction_var(loop: Operation, index: int = 0) -> Value:
    """IV ``index`` of an ``affine.for`` (always 0) or ``affine.parallel``."""
    return loop.regions[0].blocks[0].arguments[index]


def loop_label(loop: Operation, index: int = 0) -> str:
    """``%i at k.mlir:4:3``: the loop's induction variable ``index`` and where it is; the
    op's name in its place where the IV has no written name (a loop the tool made, as
    where a pass distributed one: ``affine.for at k.mlir:4:3``)."""
    iv = induction_var(loop, index)
    name = value_label(iv) if iv.name is not None or loop.loc is None else loop.name
    return f"{name} at {loop.loc}" if loop.loc is not None else name
