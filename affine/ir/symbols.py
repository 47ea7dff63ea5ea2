"""Symbols: ops named by a ``sym_name`` attribute, found in the nearest symbol table.

Invariant: the one lookup of a symbol by name (MLIR's ``SymbolTable::lookupNearestSymbolFrom``):
from an op, the nearest enclosing op with the symbol-table trait (the op itself included),
then the op of that name among the ops directly in its region. Calls, ``func.constant``,
``memref.get_global``, and the verifier's duplicate check use it (``Module.function`` finds a
function by name anywhere in the module, nested modules included, for the command line's
``--func``).
"""

from __future__ import annotations

from affine.ir.attributes import StringAttr
from affine.ir.core import Operation
from affine.ir.registry import SYMBOL_TABLE


def symbol_name(op: Operation) -> str | None:
    """The op's ``sym_name`` (inherent or discardable), if it is a string."""
    name = op.get_attr("sym_name")
    return name.value if isinstance(name, StringAttr) else None


def nearest_symbol_table(op: Operation | None) -> Operation | None:
    """``op`` or its closest ancestor that is a symbol table (MLIR's getNearestSymbolTable)."""
    while op is not None:
        op_def = op.op_def
        if op_def is not None and op_def.has(SYMBOL_TABLE):
            return op
        op = op.parent_op
    return None


def lookup_nearest_symbol_from(op: Operation, name: str) -> Operation | None:
    """The op named ``@name`` in the nearest symbol table around ``op`` (None: none)."""
    table = nearest_symbol_table(op)
    if table is None or not table.regions or not table.regions[0].blocks:
        return None
    for candidate in table.regions[0].blocks[0].operations:
        if symbol_name(candidate) == name:
            return candidate
    return None
