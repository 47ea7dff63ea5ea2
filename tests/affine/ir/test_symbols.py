"""Symbols are looked up as MLIR's lookupNearestSymbolFrom does: in the nearest symbol table
around the user, nowhere else."""

from __future__ import annotations

import pytest

from affine import VerifyError, parse, parse_module
from affine.ir.symbols import lookup_nearest_symbol_from, nearest_symbol_table, symbol_name

NESTED = """
module {
  func.func @outer() {
    return
  }
  module {
    func.func @inner() {
      return
    }
    func.func @caller() {
      func.call @inner() : () -> ()
      return
    }
  }
}
"""


def test_lookup_finds_symbols_of_the_nearest_table_only() -> None:
    module = parse(NESTED)
    call = next(op for op in module.walk() if op.name == "func.call")
    inner_module = nearest_symbol_table(call)
    assert inner_module is not None and inner_module.parent_op is module.operation
    found = lookup_nearest_symbol_from(call, "inner")
    assert found is not None and symbol_name(found) == "inner"
    assert lookup_nearest_symbol_from(call, "outer") is None
    assert lookup_nearest_symbol_from(module.operation, "outer") is not None


def test_a_call_to_a_function_of_an_outer_module_is_refused_as_mlir_opt_does() -> None:
    text = NESTED.replace("func.call @inner()", "func.call @outer()")
    parse_module(text)  # reads
    with pytest.raises(VerifyError, match="'outer' does not reference a valid function"):
        parse(text)
