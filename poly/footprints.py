"""Exact footprints of a loop: the elements of each memref its accesses read and write, as
ISL sets over the IVs of the loops around it and the function's symbols (parameters).

Invariant: ``reads`` / ``writes`` hold exactly the elements the loop's instances touch for
given parameter values when ``exact``; otherwise they contain them (an access or bound the
model over-approximates). The bounding box of a footprint has a per-dimension start that
is one affine expression of the parameters and a constant extent (the largest over every
parameter value the enclosing loops allow), or the reason it has not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine.ir.core import Operation, Value
from affine.ir.types import MemRefType
from affine.math.expr import AffineExpr
from poly.context import budget, coalesced
from poly.convert import NotExpressibleError, pw_aff_to_expr
from poly.model import READ, Access, ModelError, Statement, build_model, within_shape
from poly.space import align_params, param_names
from poly.tile_model import element_bytes


@dataclass
class Footprint:
    """What one loop reads and writes of one memref (a root buffer, views traced back)."""

    memref: Value
    reads: isl.Set | None
    writes: isl.Set | None
    accesses: list[Access] = field(default_factory=list)
    exact: bool = True

    @property
    def region(self) -> isl.Set:
        result = None
        for part in (self.reads, self.writes):
            if part is not None:
                result = _joined(result, part)
        assert result is not None  # a footprint reads or writes
        return coalesced(result)


@dataclass
class Box:
    """A bounding box: per dimension the first index (over ``params``) and the extent."""

    starts: list[AffineExpr]  # over symbols named by ``params``, in order
    extents: list[int]
    params: list[str]

    @property
    def volume(self) -> int:
        return math.prod(self.extents)


def _depth(loop: Operation) -> int:
    """How many loops enclose ``loop``."""
    return sum(1 for op in loop.ancestors() if op.name in ("affine.for", "affine.parallel"))


def _outer_dims(statement: Statement, depth: int) -> int:
    """How many of ``statement``'s dimensions the ``depth`` loops around a loop give (an
    ``affine.parallel`` gives one per IV)."""
    return sum(
        len(outer_loop.regions[0].blocks[0].arguments)
        if outer_loop.name == "affine.parallel"
        else 1
        for outer_loop in statement.loops[:depth]
    )


def _joined(current: isl.Set | None, new: isl.Set) -> isl.Set:
    if current is None:
        return new
    current, new = align_params(current, new)
    return coalesced(current.union(new))


def loop_footprints(loop: Operation) -> tuple[dict[Value, Footprint], dict[str, Value]]:
    """The footprint of every memref ``loop``'s body accesses, and the IR value of every ISL
    parameter (outer IVs, symbols) they are expressed over."""
    function = loop
    while function.parent_op is not None and function.name != "func.func":
        function = function.parent_op
    model = build_model(function)
    found: dict[Value, Footprint] = {}
    values: dict[str, Value] = {}
    depth = _depth(loop)
    for access in model.accesses:
        if not loop.is_ancestor_of(access.op):
            continue
        statement = access.statement
        outer = _outer_dims(statement, depth)
        relation = access.relation.intersect_domain(statement.domain)
        relation = relation.move_dims(
            isl.dim_type.param, relation.dim(isl.dim_type.param), isl.dim_type.in_, 0, outer
        )
        elements = coalesced(relation.range())
        footprint = found.setdefault(access.memref, Footprint(access.memref, None, None))
        footprint.accesses.append(access)
        footprint.exact &= access.exact and statement.exact
        attr = "reads" if access.kind == READ else "writes"
        setattr(footprint, attr, _joined(getattr(footprint, attr), elements))
        scope = statement.scope
        for key, name in scope.param_names.items():
            if isinstance(key, Value):
                values[name] = key
        for outer_loop in statement.loops[:depth]:
            for iv in (
                outer_loop.regions[0]
                .blocks[0]
                .arguments[: (1 if outer_loop.name == "affine.for" else None)]
            ):
                values[scope.iv_name(iv)] = iv
    return found, values


def reached(loop: Operation, footprint: Footprint) -> isl.Set:
    """The parameter values (outer IVs, symbols) at which ``loop`` runs, over the domains
    of the statements of ``footprint`` (``loop_footprints(loop)``'s), with the constraints
    of the loops inside dropped: where those run no iteration, ``loop`` still runs. An
    ``affine.if`` inside ``loop`` on the outer IVs is not told apart from a bound of theirs."""
    depth = _depth(loop)
    result: isl.Set | None = None
    for access in footprint.accesses:
        statement = access.statement
        result = _joined(result, _outer_domain(statement.domain, _outer_dims(statement, depth)))
    assert result is not None  # a footprint has accesses
    return result


def _outer_domain(domain: isl.Set, outer: int) -> isl.Set:
    """The values of the first ``outer`` dimensions of ``domain`` that its outer loops run
    at, as parameters: the constraints of the loops inside dropped (where those run no
    iteration, the outer ones still do)."""
    inner = domain.dim(isl.dim_type.set) - outer
    around = domain.drop_constraints_involving_dims(isl.dim_type.set, outer, inner)
    around = around.project_out(isl.dim_type.set, outer, inner)
    return around.move_dims(
        isl.dim_type.param, around.dim(isl.dim_type.param), isl.dim_type.set, 0, outer
    ).params()


def constant_span(points: isl.Set, aff: isl.Aff) -> tuple[int, int] | None:
    """The least and greatest value of ``aff`` on ``points`` when both are constants."""
    low, high = points.min_val(aff), points.max_val(aff)
    if not (low.is_int() and high.is_int()):
        return None
    return int(low.to_python()), int(high.to_python())


def least_span(
    points: isl.Set, index: isl.Aff, starts: Sequence[isl.Aff]
) -> tuple[int, int, int] | None:
    """Among ``starts`` (affine functions on the space of ``points``), the one from which
    ``index`` takes the fewest values on ``points``: (number of values, position in
    ``starts``, least value of ``index - start``); None when no difference is bounded."""
    best: tuple[int, int, int] | None = None
    for position, start in enumerate(starts):
        span = constant_span(points, index.sub(start))
        if span is not None and (best is None or span[1] - span[0] + 1 < best[0]):
            best = (span[1] - span[0] + 1, position, span[0])
    return best


def _greatest(value: isl.PwAff) -> isl.Val:
    """The greatest value ``value`` takes over its domain and parameters. ISL's own
    ``max_val`` refuses a piece written with a rational coefficient, ``(62 - 2i - (i - 1)
    mod 6) / 2`` (integral on its domain: steps 2 and 3 nested), so the maximum is taken
    over the graph, with the parameters as set dimensions."""
    graph = isl.Set.from_pw_aff(value)
    graph = graph.move_dims(
        isl.dim_type.set, 0, isl.dim_type.param, 0, graph.dim(isl.dim_type.param)
    )
    return graph.dim_max_val(graph.dim(isl.dim_type.set) - 1)


def bounding_box(region: isl.Set) -> Box | str:
    """The bounding box of ``region`` (start affine in the parameters, constant extents), or
    why there is none. Where the least index is not one affine expression (a ``max`` of
    bounds), the start is the piece of it from which the region spans the fewest indices."""
    if region.is_empty():
        return "no element is accessed (the loops around never run)"
    if not region.is_bounded():
        return "the region is unbounded (an index is not affine in a memref of unknown size)"
    names = param_names(region)
    starts: list[AffineExpr] = []
    extents: list[int] = []
    rank = region.dim(isl.dim_type.set)
    with budget(what="bounding box"):
        for k in range(rank):
            low, high = region.dim_min(k), region.dim_max(k)
            extent = _greatest(high.sub(low))
            if not extent.is_int():
                return f"dimension {k} of the region has no constant extent"
            try:
                starts.append(pw_aff_to_expr(low.gist(region.params()), names))
                extents.append(int(extent.to_python()) + 1)
                continue
            except NotExpressibleError:
                pass
            pieces = [aff for _, aff in low.get_pieces()]
            on_region = [
                aff.insert_dims(isl.dim_type.in_, 0, rank).set_tuple_id(
                    isl.dim_type.in_, region.get_tuple_id()
                )
                for aff in pieces
            ]
            index = isl.Aff.var_on_domain(
                isl.LocalSpace.from_space(region.get_space()), isl.dim_type.set, k
            )
            best = least_span(region, index, on_region)
            try:
                if best is None:
                    raise NotExpressibleError("no piece bounds the region")
                count, position, shift = best
                start = isl.PwAff.from_aff(pieces[position].add_constant_val(_val(region, shift)))
                starts.append(pw_aff_to_expr(start, names))
            except NotExpressibleError:
                return f"dimension {k} of the region does not start at one affine expression"
            extents.append(count)
    return Box(starts, extents, names)


def _val(like: isl.Set, value: int) -> isl.Val:
    return isl.Val.int_from_si(like.get_ctx(), value)


def box_set(region: isl.Set) -> isl.Set | str:
    """The bounding box of ``region`` as a set in its space (starts depend on the
    parameters), or why it has no constant extent."""
    result = isl.Set.universe(region.get_space())
    rank = region.dim(isl.dim_type.set)
    on_elements = isl.LocalSpace.from_space(region.get_space())
    for k in range(rank):
        low, high = region.dim_min(k), region.dim_max(k)
        extent = _greatest(high.sub(low))
        if not extent.is_int():
            return f"dimension {k} of the region has no constant extent"
        start = low.insert_dims(isl.dim_type.in_, 0, rank).set_tuple_id(
            isl.dim_type.in_, region.get_tuple_id()
        )
        index = isl.PwAff.var_on_domain(on_elements, isl.dim_type.set, k)
        result = result.intersect(index.ge_set(start)).intersect(
            index.le_set(start.add_constant_val(extent))
        )
    return result.intersect_params(region.params())


def copy_schedule(region: isl.Set) -> isl.Map:
    """The schedule visiting every element of ``region`` in lexicographic order."""
    return isl.Map.identity(region.get_space().map_from_set()).intersect_domain(region)


def box_within(region: isl.Set, shape: Sequence[int]) -> bool:
    """Whether the bounding box of ``region`` lies in ``0 <= x_k < shape[k]`` for every
    parameter value where ``region`` is not empty."""
    box = box_set(region)
    if isinstance(box, str):
        return False
    return box.is_subset(within_shape(isl.Set.universe(box.get_space()), shape))


# A footprint, named for transforms/ (which does not import islpy).
Region = isl.Set


COUNTABLE = 1 << 16  # elements of a constant box whose points are counted, not compared


def is_box(region: isl.Set) -> bool:
    """Whether ``region`` fills its bounding box for every parameter value. A small box
    without parameters is compared by counting its points: with ``mod`` and ``floordiv``
    subscripts, ISL's subset test of the box took 30 s where counting took 0.05 s."""
    box = box_set(region)
    if isinstance(box, str):
        return False
    volume = _constant_box_volume(region)
    if volume is not None and volume <= COUNTABLE:
        return int(region.count_val().to_python()) == volume
    return box.is_subset(region)


def _constant_box_volume(region: isl.Set) -> int | None:
    """The points of ``region``'s bounding box when the region has no parameters, else
    None."""
    if region.dim(isl.dim_type.param):
        return None
    volume = 1
    for k in range(region.dim(isl.dim_type.set)):
        low, high = region.dim_min_val(k), region.dim_max_val(k)
        if not (low.is_int() and high.is_int()):
            return None
        volume *= int(high.sub(low).to_python()) + 1
    return volume


def first_volumes(region: isl.Set) -> tuple[int, int]:
    """The number of elements of ``region`` and of its bounding box, for the first parameter
    values (lexicographically) where it is not empty."""
    box = box_set(region)
    assert not isinstance(box, str)
    if region.dim(isl.dim_type.param):
        point = region.params().lexmin().sample_point()
        fixed = isl.Set.from_point(point)
        region, box = region.intersect_params(fixed), box.intersect_params(fixed)
        region = region.project_out(isl.dim_type.param, 0, region.dim(isl.dim_type.param))
        box = box.project_out(isl.dim_type.param, 0, box.dim(isl.dim_type.param))
    return int(region.count_val().to_python()), int(box.count_val().to_python())


def element_count(region: isl.Set) -> int | None:
    """The elements of ``region`` (its box's volume when it fills it), or None when it
    depends on parameters."""
    if region.dim(isl.dim_type.param):
        return None
    box = bounding_box(region)
    if not isinstance(box, str) and is_box(region):
        return box.volume
    return int(region.count_val().to_python())


def bytes_touched(function: Operation) -> tuple[int, bool] | None:
    """The bytes of memref elements each top-level loop nest of ``function`` touches, summed
    over the nests (an element two nests touch counts twice), and whether every footprint
    is exact (else the sum contains them); None when a footprint's size is symbolic."""
    total, exact = 0, True
    for op in function.regions[0].blocks[0].operations:
        if op.name not in ("affine.for", "affine.parallel"):
            continue
        footprints, _ = loop_footprints(op)
        for memref, footprint in footprints.items():
            count = element_count(footprint.region)
            if count is None or not isinstance(memref.type, MemRefType):
                return None
            total += count * element_bytes(memref.type)
            exact &= footprint.exact
    return total, exact


__all__ = [
    "Box",
    "Footprint",
    "ModelError",
    "Region",
    "bounding_box",
    "box_set",
    "box_within",
    "bytes_touched",
    "copy_schedule",
    "element_count",
    "first_volumes",
    "is_box",
    "loop_footprints",
    "reached",
]
