"""Pure-Python IR for MLIR affine code: values, ops, reader, printer, verifier.

This package imports neither islpy nor networkx (the polyhedral layer is :mod:`poly`).
"""

from typing import Any

from affine import dialects as dialects
from affine import ops as ops
from affine.dialects.verifier import verify as verify
from affine.errors import PolyError as PolyError
from affine.ir.core import Block as Block
from affine.ir.core import Module as Module
from affine.ir.core import Operation as Operation
from affine.ir.core import Region as Region
from affine.ir.core import Value as Value
from affine.ir.diagnostics import DiagnosticError as DiagnosticError
from affine.ir.diagnostics import ParseError as ParseError
from affine.ir.diagnostics import VerifyError as VerifyError
from affine.math.affine_map import AffineMap as AffineMap
from affine.math.expr import AffineExpr as AffineExpr
from affine.math.expr import AffineExprError as AffineExprError
from affine.math.expr import constant as constant
from affine.math.expr import dim as dim
from affine.math.expr import dims as dims
from affine.math.expr import symbol as symbol
from affine.math.expr import symbols as symbols
from affine.math.integer_set import IntegerSet as IntegerSet
from affine.syntax.parser import parse_affine_expr as parse_affine_expr
from affine.syntax.parser import parse_affine_map as parse_affine_map
from affine.syntax.parser import parse_attribute as parse_attribute
from affine.syntax.parser import parse_integer_set as parse_integer_set
from affine.syntax.parser import parse_module as parse_module
from affine.syntax.parser import parse_type as parse_type
from affine.syntax.printer import print_module as print_module
from affine.syntax.printer import print_operation as print_operation

__version__ = "0.1.0"


def parse(text: str, filename: str = "<input>") -> Module:
    """Read MLIR text (modern or 2018-19 seed syntax) into a verified module."""
    module = parse_module(text, filename)
    verify(module)
    return module


def __getattr__(name: str) -> Any:
    """The execution functions (``run``, ``time_kernel``, ``load_kernel``, ``check_equivalent``,
    ``deterministic_inputs``, ``random_inputs``) load numpy only when first used."""
    if name in ("deterministic_inputs", "random_inputs"):
        from affine.exec import inputs  # lazy: start-up cost (the execution layer)

        return getattr(inputs, name)
    if name in ("run", "time_kernel", "load_kernel"):
        from affine.exec import running  # lazy: start-up cost (numpy)

        return getattr(running, name)
    if name == "check_equivalent":
        from affine.exec import equivalence  # lazy: start-up cost (numpy)

        return equivalence.check_equivalent
    raise AttributeError(f"module 'affine' has no attribute {name!r}")
