"""Bounds of memory accesses, proven with ISL: every instance of an access stays inside the
shape of the memref it indexes, or here is one that does not.

Invariant: ``PROVEN`` is only said of an access all of whose instances (a superset of them
when the model over-approximates a domain) index inside the memref's logical shape, for
every value of the parameters (symbols, and the ``?`` sizes of the memref, which are at
least 0); ``OUT_OF_BOUNDS`` comes with a witness instance (loop values and parameters, by
their names in the source) that ISL found in an exactly modelled domain; whatever cannot be
decided (subscripts that are not affine, approximated domains, the ISL budget) is
``UNKNOWN``, which clients treat as "may be out of bounds".

An access is an ``affine.load``/``store``, ``affine.vector_load``/``vector_store`` (every
lane: a vector spans the trailing dimensions) or a ``memref.load``/``store``; the shape is
that of the memref value the op indexes (a view's own shape).  A ``?`` size is the
parameter of the ``memref.dim`` op that reads it when the function has one (so bounds taken
from ``memref.dim`` prove accesses), else a parameter of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine.dialects.common import segments
from affine.exec.safety import BOUNDS_CHECKED_OPS, install_bounds_prover
from affine.ir.core import Module, Operation, OpResult, Value
from affine.ir.diagnostics import Location
from affine.ir.types import DYNAMIC, MemRefType, VectorType
from affine.math.affine_map import AffineMap
from poly.context import IslBudgetExceeded, budget
from poly.model import Scope, Statement, build_model

PROVEN = "proven"
OUT_OF_BOUNDS = "out-of-bounds"
UNKNOWN = "unknown"

ACCESS_OPS = BOUNDS_CHECKED_OPS

BOUNDS_BUDGET = 2_000_000  # ISL operations per access


@dataclass(frozen=True)
class BoundsVerdict:
    """What is known of one access: ``status`` is ``PROVEN``, ``OUT_OF_BOUNDS`` (with
    ``witness``, the instance's loop values and parameters in the source's names, and
    ``index``, the index it reaches) or ``UNKNOWN`` (with ``reason``)."""

    op: Operation
    status: str
    memref: str
    shape: str
    witness: dict[str, int] = field(default_factory=dict)
    index: tuple[int, ...] = ()
    reason: str = ""

    @property
    def proven(self) -> bool:
        return self.status == PROVEN

    @property
    def loc(self) -> Location | None:
        return self.op.loc

    def describe(self) -> str:
        """One line for a remark."""
        what = f"'{self.op.name}' of {self.memref} ({self.shape})"
        if self.status == PROVEN:
            return f"{what}: in bounds (proven)"
        if self.status == OUT_OF_BOUNDS:
            instance = ", ".join(f"{k} = {v}" for k, v in self.witness.items())
            return (
                f"{what}: may be out of bounds, e.g. index {list(self.index)} at {instance}"
                if instance
                else f"{what}: out of bounds at index {list(self.index)}"
            )
        return f"{what}: bounds unknown ({self.reason})"


def check_bounds(root: Module | Operation) -> list[BoundsVerdict]:
    """One verdict per access (see :data:`ACCESS_OPS`) under ``root``, in walk order.
    Importing this module makes runs (:mod:`affine.exec.running`) leave the accesses it
    proves unchecked."""
    op = root.operation if isinstance(root, Module) else root
    model = build_model(op)
    verdicts = []
    for statement in model.statements:
        if statement.op.name in ACCESS_OPS:
            try:
                with budget(BOUNDS_BUDGET, "the bounds check"):
                    verdicts.append(_check_access(statement))
            except IslBudgetExceeded as e:
                verdicts.append(_unknown(statement, str(e)))
    return verdicts


def proven_in_bounds(root: Module | Operation) -> frozenset[Operation]:
    """The access ops under ``root`` proven in bounds (those a run may leave unchecked)."""
    return frozenset(v.op for v in check_bounds(root) if v.proven)


def _operands(op: Operation) -> tuple[Value, AffineMap | None, Sequence[Value]]:
    """The memref, the access map (None for memref.load/store) and the index operands."""
    first = 0 if "load" in op.name else 1
    memref = op.operands[first]
    attr = op.get_attr("map")
    return memref, None if attr is None else attr.value, op.operands[first + 1 :]  # type: ignore[attr-defined]  # an AffineMapAttr


def _lanes(op: Operation) -> list[int]:
    vector = op.results[0].type if "load" in op.name else op.operands[0].type
    return list(vector.shape) if isinstance(vector, VectorType) else []


def _memref_label(memref: Value) -> str:
    return memref.name or "the memref"


def _unknown(statement: Statement, reason: str) -> BoundsVerdict:
    memref, _, _ = _operands(statement.op)
    return BoundsVerdict(
        statement.op, UNKNOWN, _memref_label(memref), str(memref.type), {}, (), reason
    )


def _allocated_sizes(memref: Value) -> dict[int, Value]:
    """The operands an ``alloc``/``alloca`` of ``memref`` gives its ``?`` sizes, by dim."""
    op = memref.owner_op
    if op is None or op.name not in ("memref.alloc", "memref.alloca"):
        return {}
    t = memref.type
    assert isinstance(t, MemRefType)  # the op's verifier checked it
    dynamic = [k for k, s in enumerate(t.shape) if s == DYNAMIC]
    return dict(zip(dynamic, segments(op, 0)))


def _size_param(scope: Scope, memref: Value, k: int) -> str:
    """The parameter for the ``?`` size ``k`` of ``memref``: the one of a ``memref.dim``
    of it the model met, else one of its own."""
    for key, name in scope.param_names.items():
        if (
            isinstance(key, OpResult)
            and key.owner.name == "memref.dim"
            and key.owner.operands[0] is memref
            and scope.constant(key.owner.operands[1]) == k
        ):
            return name
    return scope.param_name((memref, "size", k))


def _check_access(statement: Statement) -> BoundsVerdict:
    op, scope, on = statement.op, statement.scope, statement.space
    memref, m, operands = _operands(op)
    t = memref.type
    assert isinstance(t, MemRefType)  # the op's verifier checked it
    if m is None:
        subscripts = [scope.pw_aff(v, on) for v in operands]
    else:
        subscripts = [scope.map_result(m, e, operands, on) for e in m.results]
    lanes = _lanes(op)
    widths = [1] * (len(subscripts) - len(lanes)) + lanes
    label = _memref_label(memref)
    if any(x is None for x in subscripts):
        k = next(k for k, x in enumerate(subscripts) if x is None)
        return BoundsVerdict(op, UNKNOWN, label, str(t), reason=f"subscript {k} is not affine")
    sizes: list[isl.PwAff] = []
    nonnegative = on.universe
    allocated = _allocated_sizes(memref)
    for k, size in enumerate(t.shape):
        if size == DYNAMIC:
            given = allocated.get(k)
            p = scope.pw_aff(given, on) if given is not None else None
            p = p if p is not None else on.param(_size_param(scope, memref, k))
            nonnegative = nonnegative.intersect(p.ge_set(on.const(0)))
            sizes.append(p)
        else:
            sizes.append(on.const(size))
    outside = on.universe.subtract(on.universe)
    for x, width, extent in zip(subscripts, widths, sizes):
        assert x is not None
        outside = outside.union(x.lt_set(on.const(0)))
        outside = outside.union(x.add(on.const(width - 1)).ge_set(extent))
    domain = statement.domain.align_params(outside.get_space())
    outside = outside.align_params(domain.get_space())
    nonnegative = nonnegative.align_params(domain.get_space())
    bad = domain.intersect(outside).intersect(nonnegative)
    if bad.is_empty():
        return BoundsVerdict(op, PROVEN, label, str(t))
    if not statement.exact:
        reason = "the iteration domain is approximated: " + "; ".join(statement.reasons)
        return BoundsVerdict(op, UNKNOWN, label, str(t), reason=reason)
    values, ivs = _first_instance(bad)
    witness = _source_names(statement, ivs, values)
    index = tuple(_evaluate(x, ivs, values) for x in subscripts if x is not None)
    return BoundsVerdict(op, OUT_OF_BOUNDS, label, str(t), witness, index)


def _first_instance(bad: isl.Set) -> tuple[dict[str, int], list[int]]:
    """A point of ``bad``: its parameters by name and its set coordinates.  The
    lexicographically first point with every coordinate (parameters first) non-negative
    when there is one, so witnesses read as the first failing run; else any point."""
    count = bad.dim(isl.dim_type.param)
    names = [str(bad.get_dim_name(isl.dim_type.param, k)) for k in range(count)]
    flat = bad.move_dims(isl.dim_type.set, 0, isl.dim_type.param, 0, count)
    nonnegative = flat
    for k in range(flat.dim(isl.dim_type.set)):
        nonnegative = nonnegative.lower_bound_val(isl.dim_type.set, k, 0)
    point = flat.sample_point()
    if not nonnegative.is_empty():
        first = nonnegative.lexmin().sample_point()
        point = first if not first.is_void() else nonnegative.sample_point()
    coordinates = [
        int(point.get_coordinate_val(isl.dim_type.set, k).to_python())
        for k in range(flat.dim(isl.dim_type.set))
    ]
    return dict(zip(names, coordinates[:count])), coordinates[count:]


def _evaluate(x: isl.PwAff, ivs: list[int], params: dict[str, int]) -> int:
    """The value of ``x`` at the instance ``ivs`` with the parameters ``params``."""
    point = isl.Point.zero(x.get_domain_space())
    for k, v in enumerate(ivs):
        point = point.set_coordinate_val(isl.dim_type.set, k, v)
    for k in range(x.dim(isl.dim_type.param)):
        name = str(x.get_dim_name(isl.dim_type.param, k))
        point = point.set_coordinate_val(isl.dim_type.param, k, params.get(name, 0))
    return int(x.eval(point).to_python())


def _source_names(statement: Statement, ivs: list[int], params: dict[str, int]) -> dict[str, int]:
    """The witness keyed by the source's names: loop IVs, then symbol values and sizes."""
    witness: dict[str, int] = {}
    loop_ivs = [
        iv
        for loop in statement.loops
        for iv in loop.regions[0]
        .blocks[0]
        .arguments[
            : (len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1)
        ]
    ]
    for iv, value in zip(loop_ivs, ivs):
        witness[iv.name or f"loop IV {len(witness)}"] = value
    for key, name in statement.scope.param_names.items():
        if name not in params:
            continue
        if isinstance(key, Value):
            witness[key.name or name] = params[name]
        elif isinstance(key, tuple) and len(key) == 3 and key[1] == "size":
            witness[f"size {key[2]} of {_memref_label(key[0])}"] = params[name]
    return witness


install_bounds_prover(proven_in_bounds)

__all__ = [
    "ACCESS_OPS",
    "OUT_OF_BOUNDS",
    "PROVEN",
    "UNKNOWN",
    "BoundsVerdict",
    "check_bounds",
    "proven_in_bounds",
]
