"""Chains side by side over a triangular inner loop: the schedule that jams ``factor``
iterations of a loop ``j`` over the part of its inner loop ``k`` that they all run, then
finishes each iteration's own part (its ``k`` iterations past the group's first, and
``j``'s body after ``k``) one iteration after the other.

Invariant: the schedule runs every statement instance once; it is returned only where
:meth:`poly.schedule.Schedule.check` finds it legal against every dependence.

Plain unroll-and-jam runs the copies side by side to the end of ``k``; where iteration
``j + 1`` of ``k`` reads what ``j``'s body writes after its ``k`` loop (cholesky's
``A[i][j] /= A[j][j]``, read as ``A[i][k]`` at ``k = j``; trisolv's ``x[i]``), that reverses
a dependence. Here the instances of group ``g = floor(j / factor)``, copy
``c = j mod factor``, run in four parts: the ops before ``k`` (copy by copy), each copy's
*head* (its ``k`` iterations before those every copy of the group runs, in the order of
``c``: a band whose copies start at different ``k``), the *steady* ``k`` iterations,
which every copy of the group runs (``k`` outside, the copies inside: ``factor``
independent chains, over loops of constant trip count that LLVM unrolls, their sums in
registers), and each copy's *tail* (its other ``k`` iterations and the ops after ``k``)
in the order of ``c``. In the flat 2d+1 vectors, with ``j`` at position ``p`` and ``k``
at ``p + 2``:

    before k:  [.., g, 0, c, v[p+1] ..]
    head:      [.., g, 1, c, v[p+1] ..]
    steady:    [.., g, 2, k, c, v[p+3] .., 0]
    tail:      [.., g, 3, c, v[p+1] ..]
"""

from __future__ import annotations

import islpy as isl

from affine.ir.core import Operation
from poly.schedule import Schedule
from poly.space import align_params, isl_context

BEFORE, HEAD, STEADY, TAIL = 0, 1, 2, 3


def _vector_map(width: int, parts: list[isl.Aff | int], out: int) -> isl.Map:
    """The map from anonymous vectors of ``width`` to vectors of ``out`` dimensions, each
    output an affine function of the input (an Aff) or a constant, padded with zeros."""
    assert len(parts) <= out
    space = isl.Space.alloc(isl_context(), 0, width, out)
    domain = isl.LocalSpace.from_space(space.domain())
    affs = isl.AffList.alloc(isl_context(), out)
    for k in range(out):
        part = parts[k] if k < len(parts) else 0
        if isinstance(part, int):
            part = isl.Aff.zero_on_domain(domain).set_constant_val(_val(part))
        affs = affs.add(part)
    return isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(space, affs))


def _val(n: int) -> isl.Val:
    return isl.Val.int_from_si(isl_context(), n)


def _var(width: int, k: int) -> isl.Aff:
    """Dimension ``k`` of anonymous vectors of ``width``."""
    domain = isl.LocalSpace.from_space(isl.Space.set_alloc(isl_context(), 0, width))
    return isl.Aff.var_on_domain(domain, isl.dim_type.set, k)


def _group_map(width: int, p: int, factor: int, part: int) -> isl.Map:
    """The map from a statement's flat vector (``j`` at ``p``, ``k`` at ``p + 2`` for the
    steady part) to its vector in the jammed schedule (see the module docstring)."""

    def var(k: int) -> isl.Aff:
        return _var(width, k)

    j = var(p)
    group = j.scale_down_val(_val(factor)).floor()
    copy = j.sub(group.scale_val(_val(factor)))
    prefix: list[isl.Aff | int] = [var(k) for k in range(p)]
    rest = [var(k) for k in range(p + 1, width)]
    if part == STEADY:
        return _vector_map(width, [*prefix, group, STEADY, var(p + 2), copy, *rest[2:]], width + 2)
    return _vector_map(width, [*prefix, group, part, copy, *rest], width + 2)


def _prefix(domain: isl.Set, position: int) -> isl.Set:
    """``domain``'s points cut to dimensions ``0 .. position``, unnamed."""
    n = domain.get_space().dim(isl.dim_type.set)
    cut = domain.project_out(isl.dim_type.set, position + 1, n - position - 1)
    return cut.reset_tuple_id()


def _same_group(space: isl.Space, position: int, factor: int, inner: bool) -> isl.Map:
    """The pairs of points of ``space`` in the same group (dimension ``position`` equal
    once rounded down to a multiple of ``factor``), every other dimension equal but, unless
    ``inner``, the one after ``position``."""
    local = isl.LocalSpace.from_space(space)
    affs = isl.AffList.alloc(isl_context(), space.dim(isl.dim_type.set))
    for k in range(space.dim(isl.dim_type.set)):
        v = isl.Aff.var_on_domain(local, isl.dim_type.set, k)
        if k == position:
            v = v.scale_down_val(_val(factor)).floor()
        elif k == position + 1 and not inner:
            v = isl.Aff.zero_on_domain(local)
        affs = affs.add(v)
    to_group = isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(space.map_from_set(), affs))
    return to_group.apply_range(to_group.reverse())


def _shared_by_group(domain: isl.Set, rows: isl.Set, position: int, factor: int) -> isl.Set:
    """The points of ``domain`` that every member of their group runs too: with dimension
    ``position`` replaced by each of the group's ``factor`` values (rounded down to a
    multiple of ``factor``, plus 0 .. ``factor`` - 1) that the jammed loop runs (in
    ``rows``, :func:`_prefix` of its statements), still in ``domain`` (a last group of
    fewer members shares what those run)."""
    space = domain.get_space()
    n = space.dim(isl.dim_type.set)
    run = rows.insert_dims(isl.dim_type.set, position + 1, n - position - 1)
    missing = run.set_tuple_name(domain.get_tuple_name()).subtract(domain)
    return domain.subtract(missing.apply(_same_group(space, position, factor, inner=True)))


def _before_shared(rest: isl.Set, shared: isl.Set, position: int, factor: int) -> isl.Set:
    """The points of ``rest`` with a point of ``shared`` after them in the inner loop
    (dimension ``position + 1``) of the same group, every other dimension equal."""
    grouped = _same_group(rest.get_space(), position, factor, inner=False)
    later = grouped.order_lt(isl.dim_type.in_, position + 1, isl.dim_type.out, position + 1)
    return rest.intersect(later.intersect_range(shared).domain())


def tail_jam(schedule: Schedule, outer: Operation, inner: Operation, factor: int) -> Schedule | str:
    """``schedule`` (a function's own 2d+1 schedule) with ``factor`` iterations of loop
    ``outer`` jammed over loop ``inner`` (directly inside it) and their tails run after (see
    the module docstring); why not, when the check finds the result illegal or the loops do
    not fit."""
    if factor < 2:
        return f"jamming by {factor} runs nothing side by side"
    if inner.parent_op is not outer:
        return "the inner loop is not directly inside the jammed loop"
    body = outer.regions[0].blocks[0].operations
    if any(op.regions for op in body if op is not inner and body.index(op) < body.index(inner)):
        return "the jammed loop holds a loop or region before the inner loop"
    maps = schedule.maps
    width = max(m.dim(isl.dim_type.out) for m in maps.values())
    if not any(inner in statement.loops for statement in schedule.statements):
        return "no statement runs in the inner loop"
    inside = [s for s in schedule.statements if outer in s.loops]
    depths = {s.name: s.loops.index(outer) for s in inside}
    rows = None
    for prefix in align_params(*(_prefix(s.domain, depths[s.name]) for s in inside)):
        rows = prefix if rows is None else rows.union(prefix)
    assert rows is not None  # a statement runs in the inner loop, inside the jammed one
    pieces: list[isl.Map] = []
    for statement in schedule.statements:
        flat = maps[statement.name]
        if outer not in statement.loops:
            pad = _vector_map(width, [_var(width, k) for k in range(width)], width + 2)
            pieces.append(flat.apply_range(pad))
            continue
        depth = statement.loops.index(outer)
        p = 2 * depth + 1
        if inner in statement.loops:
            steady = _shared_by_group(statement.domain, rows, depth, factor)
            head = _before_shared(statement.domain.subtract(steady), steady, depth, factor)
            tail = statement.domain.subtract(steady).subtract(head)
            for points, part in ((head, HEAD), (steady, STEADY), (tail, TAIL)):
                to_part = _group_map(width, p, factor, part)
                pieces.append(flat.intersect_domain(points).apply_range(to_part))
        else:
            part = BEFORE if _before(statement.ops[0], inner, outer) else TAIL
            pieces.append(flat.apply_range(_group_map(width, p, factor, part)))
    union: isl.UnionMap | None = None
    for piece in align_params(*pieces):
        union = isl.UnionMap.from_map(piece) if union is None else union.union(piece)
    assert union is not None  # a statement runs in the inner loop
    jammed = schedule.replace(union)
    verdict = jammed.check()
    if not verdict:
        return f"the jammed schedule is not legal: {verdict.reason}"
    return jammed


def _before(op: Operation, inner: Operation, outer: Operation) -> bool:
    """Whether ``op`` (in ``outer``, not in ``inner``) comes before ``inner`` in ``outer``'s
    body."""
    body = outer.regions[0].blocks[0].operations
    top = op
    while top.parent_op is not outer:
        assert top.parent_op is not None
        top = top.parent_op
    return body.index(top) < body.index(inner)


__all__ = ["tail_jam"]
