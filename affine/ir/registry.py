"""The table of operations the toolkit knows: custom syntax, verifier, traits, properties.

Each dialect module registers an :class:`OpDef` per operation.  An op whose name is not
registered is still parsed, printed (in generic form) and walked; it is simply opaque.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from affine.ir.attributes import Attribute
    from affine.ir.core import Operation
    from affine.syntax.parser import Parser
    from affine.syntax.printer import Printer
    from affine.syntax.reader import TokenReader

# Traits understood by the parser, printer and verifier.
TERMINATOR = "terminator"
ISOLATED = "isolated_from_above"
NO_TERMINATOR = "no_terminator"
GRAPH_REGION = "graph_region"
SINGLE_BLOCK = "single_block"
SYMBOL_TABLE = "symbol_table"
AFFINE_SCOPE = "affine_scope"
PURE = "pure"  # no memory effects, speculatable
FUNCTION = "function"  # FunctionOpInterface: sym_name, function_type, one body region
CONSTANT = "constant_like"
RETURN_LIKE = "return_like"
AUTOMATIC_ALLOCATION_SCOPE = "automatic_allocation_scope"  # memref.alloca is freed at its end
# MLIR's custom parser of the op puts its properties in the attribute list, so a dictionary
# written after them may not name one again ("occurs more than once"); for the other ops a
# dictionary entry naming a property sets it
PROPERTIES_IN_ATTRIBUTE_LIST = "properties_in_attribute_list"

# Dialects whose every op is registered here: an unknown op name in them is an error, as
# mlir-opt reports for dialects that do not allow unknown operations.
COMPLETE_DIALECTS = frozenset({"affine", "func"})

# Every dialect mlir-opt 22 can load (``mlir-opt --show-dialects``): a custom op of another
# dialect is "Dialect `x' not found", one of these unknown here is "custom op ... is unknown".
MLIR_OPT_DIALECTS = frozenset(
    "acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin cf "
    "complex dlti emitc func gpu index irdl linalg llvm math memref ml_program mpi nvgpu nvvm "
    "omp pdl pdl_interp ptr quant rocdl scf shape shard smt sparse_tensor spirv tensor test "
    "test_dyn test_irdl_to_cpp tosa transform ub vector wasmssa x86vector xegpu xevm".split()
)

ParseFn = Callable[["Parser", int], "Operation"]  # (parser, op name offset) -> op
PrintFn = Callable[["Printer", "Operation"], None]
VerifyFn = Callable[["Operation"], None]
NamesFn = Callable[["Operation"], "list[str | None]"]


@dataclass
class OpDef:
    name: str
    parse: ParseFn | None = None
    print: PrintFn | None = None
    verify: VerifyFn | None = None  # on entry, before the nested ops
    properties: tuple[str, ...] = ()
    traits: frozenset[str] = field(default_factory=frozenset)
    result_names: NamesFn | None = None
    block_arg_names: Callable[[Operation], list[str | None]] | None = None
    implicit_terminator: str | None = None  # op created when a region is left without one
    default_dialect: str | None = None  # dialect of unprefixed op names in the regions
    verify_regions: VerifyFn | None = None  # on exit, after the nested ops (MLIR's verifyRegions)
    property_defaults: Mapping[str, Attribute] = field(default_factory=dict)  # DefaultValuedAttr

    def has(self, trait: str) -> bool:
        return trait in self.traits


_REGISTRY: dict[str, OpDef] = {}


def register(op_def: OpDef) -> OpDef:
    _REGISTRY[op_def.name] = op_def
    return op_def


def define(
    name: str,
    *,
    parse: ParseFn | None = None,
    print: PrintFn | None = None,
    verify: VerifyFn | None = None,
    properties: tuple[str, ...] = (),
    traits: tuple[str, ...] = (),
    result_names: NamesFn | None = None,
    implicit_terminator: str | None = None,
    default_dialect: str | None = None,
    verify_regions: VerifyFn | None = None,
    property_defaults: Mapping[str, Attribute] | None = None,
) -> OpDef:
    return register(
        OpDef(
            name,
            parse,
            print,
            verify,
            properties,
            frozenset(traits),
            result_names,
            None,
            implicit_terminator,
            default_dialect,
            verify_regions,
            dict(property_defaults or {}),
        )
    )


def lookup(name: str) -> OpDef | None:
    """The definition of op ``name`` (None: not registered). The dialects register their
    ops when :mod:`affine.dialects` is imported, which the ``affine`` package does."""
    return _REGISTRY.get(name)


def all_ops() -> dict[str, OpDef]:
    return dict(_REGISTRY)


# -- dialect attributes read by their own syntax ---------------------------------------------------

AttributeParseFn = Callable[["TokenReader"], "Attribute"]  # (reader at the '<') -> attribute

_ATTRIBUTES: dict[str, AttributeParseFn] = {}


def define_attribute(name: str, parse: AttributeParseFn) -> None:
    """Read ``#name<...>`` (``name`` as ``arith.fastmath``) with ``parse``, which checks
    and canonicalises it as mlir-opt's dialect does; other dialect attributes are kept as
    written."""
    _ATTRIBUTES[name] = parse


def lookup_attribute(name: str) -> AttributeParseFn | None:
    return _ATTRIBUTES.get(name)
