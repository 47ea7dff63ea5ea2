"""How many regions, results and operands each op has, as its MLIR definition fixes them.

mlir-opt checks these counts (the ``OneRegion``, ``OneResult``, ``NOperands<N>``... traits)
before anything else about an op, so a generic-form op of the wrong shape is refused in
their words and never reaches an op's own verifier.  An entry is ``(regions, results,
operands)``: an ``int`` is an exact count, :class:`AtLeast` a minimum, ``None`` unchecked.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.ir.attributes import DenseArrayAttr
from affine.ir.core import Operation
from affine.ir.registry import lookup


@dataclass(frozen=True)
class AtLeast:
    """At least ``count`` (MLIR's ``AtLeastN...`` traits)."""

    count: int


Count = int | AtLeast | None


@dataclass(frozen=True)
class Arity:
    """The counts, then what mlir-opt checks right after them: the ``operandSegmentSizes``
    total (``segments`` groups), required attributes, regions that must hold one block
    (``one_block`` names them by index, ``""`` for a free region); ``successors`` is
    checked between the result and operand counts; ``parents`` are the ops it may be
    directly nested in (MLIR's ``HasParent``)."""

    regions: Count
    results: Count
    operands: Count
    segments: int = 0
    required: tuple[str, ...] = ()
    one_block: tuple[str, ...] = ()
    successors: int | None = None
    parents: tuple[str, ...] = ()

    def problem(self, op: Operation) -> str | None:
        """mlir-opt's message for the first rule ``op`` breaks, in mlir-opt's order."""
        for count, found, noun in (
            (self.regions, len(op.regions), "region"),
            (self.results, len(op.results), "result"),
        ):
            message = _mismatch(count, found, noun)
            if message is not None:
                return message
        if self.successors is not None and len(op.successors) != self.successors:
            plural = "" if self.successors == 1 else "s"
            return f"requires {self.successors} successor{plural} but found {len(op.successors)}"
        message = _mismatch(self.operands, len(op.operands), "operand")
        if message is not None:
            return message
        parent = op.parent_op
        if self.parents and (parent is None or parent.name not in self.parents):
            if len(self.parents) == 1:
                return f"expects parent op '{self.parents[0]}'"
            return f"expects parent op to be one of '{', '.join(self.parents)}'"
        if self.segments:
            sizes = op.properties.get("operandSegmentSizes")
            total = sum(sizes.values) if isinstance(sizes, DenseArrayAttr) else 0
            if total != len(op.operands):
                return (
                    f"operand count ({len(op.operands)}) does not match with the total size "
                    f"({total}) specified in attribute 'operandSegmentSizes'"
                )
        for name in sorted(self.required):  # mlir-opt checks them in name order
            if op.get_attr(name) is None:
                return f"requires attribute '{name}'"
        for index, name in enumerate(self.one_block):
            if name and index < len(op.regions) and len(op.regions[index].blocks) != 1:
                return (
                    f"region #{index} ('{name}') failed to verify constraint: region with 1 blocks"
                )
        return None


_EXACT_WORDS = {
    "region": ("requires zero regions", "requires one region"),
    "result": ("requires zero results", "requires one result"),
    "operand": ("requires zero operands", "requires a single operand"),
}


def _mismatch(count: Count, found: int, noun: str) -> str | None:
    """Only operand counts name the number found (MLIR's ``verifyNOperands``...)."""
    if count is None:
        return None
    minimum = isinstance(count, AtLeast)
    wanted = count.count if isinstance(count, AtLeast) else count
    if (found >= wanted) if minimum else (found == wanted):
        return None
    if not minimum and wanted < 2:
        return _EXACT_WORDS[noun][wanted]
    found_words = f", but found {found}" if noun == "operand" else ""
    return f"expected {wanted}{' or more' if minimum else ''} {noun}s{found_words}"


_SCF_YIELD_PARENTS = ("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while")
_UNARY = Arity(0, 1, 1)
_BINARY = Arity(0, 1, 2)

_ARITIES: dict[str, Arity] = {
    "affine.apply": Arity(0, 1, None, required=("map",)),
    "affine.delinearize_index": Arity(0, None, AtLeast(1), required=("static_basis",)),
    "affine.linearize_index": Arity(0, 1, None, 2, ("static_basis",)),
    "affine.for": Arity(
        1, None, None, 3, ("lowerBoundMap", "step", "upperBoundMap"), one_block=("region",)
    ),
    "affine.if": Arity(2, None, None, required=("condition",)),
    "affine.load": Arity(0, 1, AtLeast(1), required=("map",)),
    "affine.store": Arity(0, 0, AtLeast(2), required=("map",)),
    "affine.vector_load": Arity(0, 1, AtLeast(1), required=("map",)),
    "affine.vector_store": Arity(0, 0, AtLeast(2), required=("map",)),
    "affine.max": Arity(0, 1, None, required=("map",)),
    "affine.min": Arity(0, 1, None, required=("map",)),
    "affine.parallel": Arity(
        1,
        None,
        None,
        required=(
            "lowerBoundsGroups",
            "lowerBoundsMap",
            "reductions",
            "steps",
            "upperBoundsGroups",
            "upperBoundsMap",
        ),
        one_block=("region",),
    ),
    "affine.prefetch": Arity(
        0, 0, AtLeast(1), required=("isDataCache", "isWrite", "localityHint", "map")
    ),
    "affine.yield": Arity(0, 0, None),
    "arith.addui_extended": Arity(0, 2, 2),
    "arith.mulsi_extended": Arity(0, 2, 2),
    "arith.mului_extended": Arity(0, 2, 2),
    "arith.cmpf": Arity(0, 1, 2, required=("predicate",)),
    "arith.cmpi": Arity(0, 1, 2, required=("predicate",)),
    "arith.constant": Arity(0, 1, 0, required=("value",)),
    "arith.negf": _UNARY,
    "arith.select": Arity(0, 1, 3),
    "builtin.module": Arity(1, 0, 0),
    "cf.br": Arity(0, 0, None, successors=1),
    "cf.cond_br": Arity(0, 0, AtLeast(1), 3, successors=2),
    "func.call": Arity(0, None, None, required=("callee",)),
    "func.call_indirect": Arity(0, None, AtLeast(1)),
    "func.constant": Arity(0, 1, 0, required=("value",)),
    "func.func": Arity(1, 0, 0, required=("function_type", "sym_name")),
    "func.return": Arity(0, 0, None, parents=("func.func",)),
    "math.fma": Arity(0, 1, 3),
    "memref.alloc": Arity(0, 1, None, 2),
    "memref.alloca": Arity(0, 1, None, 2),
    "memref.alloca_scope": Arity(1, None, 0, one_block=("bodyRegion",)),
    "memref.assume_alignment": Arity(0, 1, 1, required=("alignment",)),
    "memref.alloca_scope.return": Arity(0, 0, None, parents=("memref.alloca_scope",)),
    "memref.atomic_rmw": Arity(0, 1, AtLeast(2), required=("kind",)),
    "memref.atomic_yield": Arity(0, 0, 1, parents=("memref.generic_atomic_rmw",)),
    "memref.cast": _UNARY,
    "memref.collapse_shape": Arity(0, 1, 1, required=("reassociation",)),
    "memref.expand_shape": Arity(
        0, 1, AtLeast(1), required=("reassociation", "static_output_shape")
    ),
    "memref.copy": Arity(0, 0, 2),
    "memref.dealloc": Arity(0, 0, 1),
    "memref.dim": _BINARY,
    "memref.dma_start": Arity(0, 0, None),
    "memref.dma_wait": Arity(0, 0, AtLeast(2)),
    "memref.extract_aligned_pointer_as_index": _UNARY,
    "memref.extract_strided_metadata": Arity(0, AtLeast(2), 1),
    "memref.generic_atomic_rmw": Arity(1, 1, AtLeast(1)),
    "memref.get_global": Arity(0, 1, 0, required=("name",)),
    "memref.global": Arity(0, 0, 0, required=("sym_name", "type")),
    "memref.load": Arity(0, 1, AtLeast(1)),
    "memref.store": Arity(0, 0, AtLeast(2)),
    "memref.memory_space_cast": _UNARY,
    "memref.prefetch": Arity(0, 0, AtLeast(1), required=("isDataCache", "isWrite", "localityHint")),
    "memref.rank": _UNARY,
    "memref.realloc": Arity(0, 1, AtLeast(1)),
    "memref.reinterpret_cast": Arity(
        0, 1, AtLeast(1), 4, ("static_offsets", "static_sizes", "static_strides")
    ),
    "memref.reshape": _BINARY,
    "memref.subview": Arity(
        0, 1, AtLeast(1), 4, ("static_offsets", "static_sizes", "static_strides")
    ),
    "memref.transpose": Arity(0, 1, 1, required=("permutation",)),
    "memref.view": Arity(0, 1, AtLeast(2)),
    "ml_program.func": Arity(1, 0, 0),
    "ml_program.subgraph": Arity(1, 0, 0),
    "ml_program.global": Arity(0, 0, 0, required=("sym_name", "type")),
    "ml_program.global_load": Arity(0, 1, 0, required=("global",)),
    "ml_program.global_load_const": Arity(0, 1, 0, required=("global",)),
    "ml_program.global_load_graph": Arity(0, 2, None, required=("global",)),
    "ml_program.global_store": Arity(0, 0, 1, required=("global",)),
    "ml_program.global_store_graph": Arity(0, 1, None, required=("global",)),
    "ml_program.return": Arity(0, 0, None, parents=("ml_program.func",)),
    "ml_program.output": Arity(0, 0, None, parents=("ml_program.subgraph",)),
    "ml_program.token": Arity(0, 1, 0),
    "scf.condition": Arity(0, 0, AtLeast(1), parents=("scf.while",)),
    "scf.execute_region": Arity(1, None, 0),
    "scf.for": Arity(1, None, AtLeast(3)),
    "scf.if": Arity(2, None, 1),
    "scf.index_switch": Arity(AtLeast(1), None, 1, required=("cases",)),
    "scf.parallel": Arity(1, None, None, 4, one_block=("region",)),
    "scf.reduce": Arity(None, 0, None, parents=("scf.parallel",)),
    "scf.reduce.return": Arity(0, 0, 1, parents=("scf.reduce",)),
    "scf.while": Arity(2, None, None, one_block=("before", "after")),
    "scf.yield": Arity(0, 0, None, parents=_SCF_YIELD_PARENTS),
    "vector.broadcast": _UNARY,
    "vector.extract": Arity(0, 1, AtLeast(1), required=("static_position",)),
    "vector.fma": Arity(0, 1, 3),
    "vector.insert": Arity(0, 1, AtLeast(2), required=("static_position",)),
    "vector.reduction": Arity(0, 1, AtLeast(1), required=("kind",)),
    "vector.shuffle": Arity(0, 1, 2, required=("mask",)),
    "vector.transfer_read": Arity(0, 1, AtLeast(2), 4, ("in_bounds", "permutation_map")),
    "vector.transfer_write": Arity(0, None, AtLeast(2), 4, ("in_bounds", "permutation_map")),
    "ub.poison": Arity(0, 1, 0),
}
for _name in (
    "addf subf mulf divf remf maximumf minimumf maxnumf minnumf addi subi muli divui divsi "
    "ceildivui ceildivsi floordivsi remui remsi andi ori xori shli shrui shrsi maxsi maxui "
    "minsi minui"
).split():
    _ARITIES[f"arith.{_name}"] = _BINARY
for _name in (
    "bitcast extf extsi extui fptosi fptoui index_cast index_castui sitofp truncf trunci uitofp"
).split():
    _ARITIES[f"arith.{_name}"] = _UNARY
for _name in ("atan2", "copysign", "powf", "fpowi", "ipowi"):
    _ARITIES[f"math.{_name}"] = _BINARY


def arity(name: str) -> Arity | None:
    """The counts of op ``name``: every ``math`` op not listed above is unary."""
    found = _ARITIES.get(name)
    if found is None and name.startswith("math.") and lookup(name) is not None:
        return _UNARY
    return found
