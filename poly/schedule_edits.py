"""Edits of a schedule tree: each takes a tree (and its program) and returns a new tree.

Loops are named by their member name (``%i``, ``%i.tile``); a band by any loop in it. An
edit that would split or merge a band keeps the order of everything it does not change
(a band of members ``[a, b]`` orders instances exactly as band ``[a]`` above band ``[b]``).
No edit checks legality (:mod:`poly.schedule_check` does); each refuses, with the reason,
what it cannot express: loops that are not perfectly nested, not consecutive, not around
the loop to skew, not siblings, or a band tiled with parametric sizes (it is fixed once
tiled).

Generated loops get derived names: strip-mining or tiling ``%i`` gives ``%i.tile`` (the
loop over tiles, stepping by the size) and ``%i.point`` (the loop inside a tile); a
wavefront renames its first loop ``%i.wave``; distribution keeps the names in the first
group and suffixes ``.2``, ``.3``, ... in the others; fusion keeps the first loop's name.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import islpy as isl

from poly.context import coalesced, isl_context
from poly.schedule_program import Program, ScheduleError
from poly.schedule_tree import (
    LEAF,
    Band,
    Member,
    Node,
    Path,
    SequenceNode,
    at,
    band_from_map,
    bands,
    domain_at,
    member_names,
    replace_at,
    statements_in,
    universe_of,
)


def _error(program: Program, message: str) -> ScheduleError:
    return ScheduleError(message, program.function.loc)


def find(root: Node, program: Program, name: str) -> tuple[Path, Band, int]:
    """The band holding loop ``name``, its path and the member's index."""
    for path, band in bands(root):
        for k, m in enumerate(band.members):
            if m.name == name:
                return path, band, k
    known = ", ".join(member_names(root)) or "none"
    raise _error(program, f"no loop named {name} in the schedule (loops: {known})")


def _editable(program: Program, band: Band, name: str) -> None:
    if band.parametric:
        raise _error(
            program,
            f"{name} is in a band tiled with parametric sizes ({', '.join(band.parametric)}); "
            "edit the band before tiling it",
        )


def _with_member(root: Node, path: Path, band: Band, k: int, member: Member) -> Node:
    members = list(band.members)
    members[k] = member
    return replace_at(root, path, replace(band, members=tuple(members)))


def _fresh(used: set[str], name: str) -> str:
    """``name``, or ``name.2``, ``name.3``, ... where it is taken; the result is taken then."""
    candidate, k = name, 1
    while candidate in used:
        k += 1
        candidate = f"{name}.{k}"
    used.add(candidate)
    return candidate


# -- one loop --------------------------------------------------------------------------------


def skew(root: Node, program: Program, loop: str, by: Mapping[str, int]) -> Node:
    """``loop`` plus ``factor`` times each loop of ``by`` (loops around it, or before it in
    its band)."""
    path, band, k = find(root, program, loop)
    _editable(program, band, loop)
    expr = band.members[k].expr
    for outer, factor in by.items():
        opath, oband, ok = find(root, program, outer)
        around = (opath == path and ok < k) or (
            len(opath) < len(path) and path[: len(opath)] == opath
        )
        if not around:
            raise _error(program, f"{outer} is not a loop around {loop}")
        expr = expr.add(oband.members[ok].expr.scale_val(_val(factor)))
    return _with_member(root, path, band, k, replace(band.members[k], expr=coalesced(expr)))


def _edit_member(
    root: Node, program: Program, loop: str, change: Callable[[Member], Member]
) -> Node:
    path, band, k = find(root, program, loop)
    _editable(program, band, loop)
    return _with_member(root, path, band, k, change(band.members[k]))


def reverse(root: Node, program: Program, loop: str) -> Node:
    """``loop`` runs its iterations in the opposite order."""
    return _edit_member(root, program, loop, lambda m: replace(m, expr=m.expr.neg()))


def scale(root: Node, program: Program, loop: str, factor: int) -> Node:
    """``loop`` takes ``factor`` times its values (a strided loop; same order)."""
    if factor < 1:
        raise _error(program, f"a scale factor must be positive, got {factor}")
    return _edit_member(
        root, program, loop, lambda m: replace(m, expr=m.expr.scale_val(_val(factor)))
    )


def shift(
    root: Node,
    program: Program,
    loop: str,
    amount: int,
    statements: Sequence[str] | None = None,
) -> Node:
    """``loop`` plus ``amount`` for the instances of ``statements`` (all by default)."""
    path, band, k = find(root, program, loop)
    _editable(program, band, loop)
    m = band.members[k]
    under = statements_in(program, domain_at(root, path, program.universe))
    names = [s.name for s in under]
    chosen = list(statements) if statements is not None else names
    for name in chosen:
        if name not in names:
            raise _error(program, f"{name} is not inside {loop} (inside: {', '.join(names)})")
    selected = universe_of([program.statement(n) for n in chosen])
    moved = m.expr.intersect_domain_union_set(selected)
    moved = moved.add(isl.UnionPwAff.val_on_domain(moved.domain(), _val(amount)))
    expr = moved.union_add(m.expr.subtract_domain_union_set(selected))
    return _with_member(root, path, band, k, replace(m, expr=coalesced(expr)))


def parallel(root: Node, program: Program, loop: str, on: bool = True) -> Node:
    """Mark (or unmark) ``loop`` parallel."""
    return _edit_member(root, program, loop, lambda m: replace(m, parallel=on))


def _tile_expr(expr: isl.UnionPwAff, size: int) -> isl.UnionPwAff:
    """``size * floor(expr / size)``: the first value of the tile holding ``expr``."""
    return expr.scale_down_val(_val(size)).floor().scale_val(_val(size))


def strip_mine(root: Node, program: Program, loop: str, size: int) -> Node:
    """``loop`` becomes ``loop.tile`` (stepping by ``size``) around ``loop.point``."""
    if size < 1:
        raise _error(program, f"a strip-mining size must be positive, got {size}")
    path, band, k = find(root, program, loop)
    _editable(program, band, loop)
    m = band.members[k]
    below = Band(band.members[k + 1 :], band.child) if k + 1 < len(band.members) else band.child
    used = set(member_names(root))
    tile = Member(_fresh(used, f"{m.name}.tile"), _tile_expr(m.expr, size), m.parallel)
    point = Member(_fresh(used, f"{m.name}.point"), m.expr, m.parallel)
    new: Node = Band((tile,), Band((point,), below), tiles=((tile.name, point.name, size),))
    if k:
        new = Band(band.members[:k], new)
    return replace_at(root, path, new)


# -- bands ------------------------------------------------------------------------------------


def merge_chain(root: Node, program: Program, names: Sequence[str]) -> tuple[Node, Path, Band]:
    """One band holding exactly the loops ``names`` (consecutive members of perfectly
    nested bands, in any order), in tree order; returns the new tree, the band's path and
    the band."""
    if len(set(names)) != len(names) or not names:
        raise _error(program, f"expected distinct loops, got {', '.join(names) or 'none'}")
    located = [find(root, program, n) for n in names]
    path, first, index = min(located, key=lambda x: (len(x[0]), x[2]))
    members: list[Member] = []
    node, k = first, index
    touched = [first]
    while len(members) < len(names):
        if k < len(node.members):
            members.append(node.members[k])
            k += 1
            continue
        if not isinstance(node.child, Band):
            missing = [n for n in names if n not in {m.name for m in members}]
            raise _error(
                program,
                f"{', '.join(missing)} not perfectly nested in {members[-1].name}: statements "
                "or a sequence lie between",
            )
        node, k = node.child, 0
        touched.append(node)
    chosen = {m.name for m in members}
    if chosen != set(names):
        between = [m.name for m in members if m.name not in set(names)]
        raise _error(
            program,
            f"loops {', '.join(names)} are not consecutive: {', '.join(between)} lies between",
        )
    for band in touched:
        if band.parametric:
            _editable(program, band, members[0].name)
    exact = len(touched) == 1 and index == 0 and k == len(first.members)
    below: Node = node.child
    if k < len(node.members):
        below = Band(node.members[k:], below)
    merged = replace(first, child=below) if exact else Band(tuple(members), below)
    new: Node = Band(first.members[:index], merged) if index else merged
    return replace_at(root, path, new), (*path, 0) if index else path, merged


def permute(root: Node, program: Program, order: Sequence[str]) -> Node:
    """The perfectly nested loops ``order`` run in that order, outermost first."""
    root, path, band = merge_chain(root, program, order)
    by_name = {m.name: m for m in band.members}
    return replace_at(root, path, replace(band, members=tuple(by_name[n] for n in order)))


def interchange(root: Node, program: Program, a: str, b: str) -> Node:
    """Swap loops ``a`` and ``b`` of one perfect nest (the loops between them stay)."""
    pa, ba, ka = find(root, program, a)
    pb, bb, kb = find(root, program, b)
    if (len(pb), kb) < (len(pa), ka):
        a, b, pa, ba, ka, pb, bb, kb = b, a, pb, bb, kb, pa, ba, ka
    names: list[str] = []
    node, k = ba, ka
    while True:
        if k < len(node.members):
            names.append(node.members[k].name)
            if names[-1] == b:
                break
            k += 1
        elif isinstance(node.child, Band):
            node, k = node.child, 0
        else:
            raise _error(program, f"{b} is not perfectly nested in {a}")
    order = [b, *names[1:-1], a]
    return permute(root, program, order)


def tile(root: Node, program: Program, loops: Sequence[str], sizes: Sequence[int | str]) -> Node:
    """Rectangular tiles of the perfectly nested ``loops`` (``sizes`` in the same order):
    integers give ``%i.tile`` loops around ``%i.point`` loops; SSA names (``"%T"``) of
    index values mark the band for the parametric tiling rewrite, after code generation."""
    if len(sizes) != len(loops):
        raise _error(program, f"{len(loops)} loops need {len(loops)} tile sizes, got {len(sizes)}")
    if all(isinstance(s, str) for s in sizes):
        for s in sizes:
            if s not in program.symbol_names:
                known = ", ".join(sorted(program.symbol_names)) or "none"
                raise _error(
                    program,
                    f"tile size {s} is not an index value of the function valid as a symbol "
                    f"(those are: {known})",
                )
        root, path, band = merge_chain(root, program, loops)
        size_of = dict(zip(loops, sizes))
        marked = replace(band, parametric=tuple(str(size_of[m.name]) for m in band.members))
        return replace_at(root, path, marked)
    integers = [s for s in sizes if isinstance(s, int)]
    if len(integers) != len(sizes):
        raise _error(program, "tile sizes must be all integers or all SSA value names")
    for s in integers:
        if s < 1:
            raise _error(program, f"tile sizes must be positive, got {s}")
    root, path, band = merge_chain(root, program, loops)
    size_by_loop = dict(zip(loops, integers))
    tiles, points = [], []
    used = set(member_names(root))
    for m in band.members:
        size = size_by_loop[m.name]
        tiles.append(Member(_fresh(used, f"{m.name}.tile"), _tile_expr(m.expr, size), m.parallel))
        points.append(Member(_fresh(used, f"{m.name}.point"), m.expr, m.parallel))
    pairs = tuple(
        (t.name, p.name, size_by_loop[m.name]) for t, p, m in zip(tiles, points, band.members)
    )
    new = Band(tuple(tiles), Band(tuple(points), band.child), tiles=pairs)
    return replace_at(root, path, new)


def wavefront(root: Node, program: Program, loops: Sequence[str]) -> Node:
    """The first of the perfectly nested ``loops`` becomes the sum of them all (``.wave``):
    the instances of one wavefront of a permutable band run in one iteration."""
    if len(loops) < 2:
        raise _error(program, "a wavefront needs at least two loops")
    root, path, band = merge_chain(root, program, loops)
    first = band.members[0]
    expr = first.expr
    for m in band.members[1:]:
        expr = expr.add(m.expr)
    wave = Member(
        _fresh(set(member_names(root)), f"{first.name}.wave"), coalesced(expr), first.parallel
    )
    return replace_at(root, path, Band((wave, *band.members[1:]), band.child))


def replace_band(root: Node, program: Program, loop: str, schedule: isl.UnionMap) -> Node:
    """The band holding ``loop`` replaced by the dimensions of ``schedule`` (a map on the
    statements inside the band), one band member per dimension."""
    path, band, _ = find(root, program, loop)
    _editable(program, band, loop)
    statements = statements_in(program, domain_at(root, path, program.universe))
    others = {n for n in member_names(root) if n not in {m.name for m in band.members}}
    members = band_from_map(schedule, program, statements, others)
    if not members:
        return replace_at(root, path, band.child)
    return replace_at(root, path, Band(members, band.child))


# -- nests ------------------------------------------------------------------------------------


def _spliced(filter_: isl.UnionSet, node: Node) -> list[tuple[isl.UnionSet, Node]]:
    if isinstance(node, SequenceNode):
        return [(filter_.intersect(f), child) for f, child in node.children]
    return [(filter_, node)]


def _sequence(children: list[tuple[isl.UnionSet, Node]]) -> Node:
    flat = [item for f, child in children for item in _spliced(f, child)]
    if not flat:
        return LEAF
    return flat[0][1] if len(flat) == 1 else SequenceNode(tuple(flat))


def fuse(root: Node, program: Program, a: str, b: str) -> Node:
    """Fuse two sibling nests: loops ``a`` and ``b`` (outermost loops of their bands,
    children of one sequence) become one loop named ``a``, running the first nest's body
    and then the second's in each iteration, at the place of the first nest."""
    pa, ba, ka = find(root, program, a)
    pb, bb, kb = find(root, program, b)
    for name, band, k in ((a, ba, ka), (b, bb, kb)):
        _editable(program, band, name)
        if k:
            raise _error(
                program, f"{name} is not the outermost loop of a nest ({band.members[0].name} is)"
            )
    if not pa or pa[:-1] != pb[:-1] or pa == pb:
        raise _error(program, f"{a} and {b} are not loops of sibling nests")
    parent = at(root, pa[:-1])
    assert isinstance(parent, SequenceNode)
    (first_index, first), (second_index, second) = sorted(
        ((pa[-1], ba), (pb[-1], bb)), key=lambda x: x[0]
    )
    filters = parent.children[first_index][0], parent.children[second_index][0]
    expr = (
        first.members[0]
        .expr.intersect_domain_union_set(filters[0])
        .union_add(second.members[0].expr.intersect_domain_union_set(filters[1]))
    )
    rests = [
        (f, Band(band.members[1:], band.child) if len(band.members) > 1 else band.child)
        for f, band in zip(filters, (first, second))
    ]
    both_parallel = first.members[0].parallel and second.members[0].parallel
    fused = Band((Member(a, coalesced(expr), both_parallel),), _sequence(rests))
    children = list(parent.children)
    children[first_index] = (filters[0].union(filters[1]), fused)
    del children[second_index]
    return replace_at(root, pa[:-1], _sequence(children))


def distribute(
    root: Node, program: Program, loop: str, groups: Sequence[Sequence[str]] | None = None
) -> Node:
    """Split the nest from ``loop`` inward (down to its first sequence of statements or
    nests) into one nest per group of statements (each statement group of the sequence
    alone by default), run one after the other in the order of ``groups``."""
    path, band, k = find(root, program, loop)
    _editable(program, band, loop)
    chain: list[tuple[Member, ...]] = [band.members[k:]]
    node = band.child
    while isinstance(node, Band):
        _editable(program, node, node.members[0].name)
        chain.append(node.members)
        node = node.child
    if not isinstance(node, SequenceNode):
        raise _error(program, f"nothing to distribute: the loops from {loop} inward hold one part")
    domain = domain_at(root, path, program.universe)
    parts = [
        [s.name for s in statements_in(program, domain.intersect(f))] for f, _ in node.children
    ]
    if groups is None:
        groups = parts
    known = [n for part in parts for n in part]
    listed = [n for g in groups for n in g]
    if sorted(listed) != sorted(known):
        raise _error(
            program,
            f"the groups must hold each statement inside {loop} once: {', '.join(known)}",
        )
    group_of = {n: g for g, names in enumerate(groups) for n in names}
    for part in parts:
        if len({group_of[n] for n in part}) > 1:
            raise _error(
                program, f"{', '.join(part)} are one part of the body and cannot be separated"
            )
    pieces: list[tuple[isl.UnionSet, Node]] = []
    used = set(member_names(root))
    for g, names in enumerate(groups):
        selected = universe_of([program.statement(n) for n in names])
        children = [
            (f, child)
            for (f, child), part in zip(node.children, parts)
            if part and group_of[part[0]] == g
        ]
        subtree = _sequence(children)
        for members in reversed(chain):
            copies = tuple(
                Member(
                    m.name if g == 0 else _fresh(used, f"{m.name}.{g + 1}"),
                    m.expr.intersect_domain_union_set(selected),
                    m.parallel,
                )
                for m in members
            )
            subtree = Band(copies, subtree)
        pieces.append((selected, subtree))
    distributed = _sequence(pieces)
    if k:
        return replace_at(root, path, Band(band.members[:k], distributed))
    if path and isinstance(parent := at(root, path[:-1]), SequenceNode):
        index = path[-1]
        children = list(parent.children)
        f = children[index][0]
        children[index : index + 1] = [(f.intersect(pf), pn) for pf, pn in pieces]
        return replace_at(root, path[:-1], SequenceNode(tuple(children)))
    return replace_at(root, path, distributed)


def _val(value: int) -> isl.Val:
    return isl.Val.int_from_si(isl_context(), value)


# -- what can be tried --------------------------------------------------------------------------


def perfect_pairs(root: Node) -> list[tuple[str, str]]:
    """Consecutive perfectly nested loops ``(outer, inner)``."""
    pairs = []
    for _, band in bands(root):
        names = [m.name for m in band.members]
        pairs += list(itertools.pairwise(names))
        if isinstance(band.child, Band):
            pairs.append((names[-1], band.child.members[0].name))
    return pairs


def enclosing(root: Node) -> list[tuple[str, str]]:
    """``(loop, a loop around it)`` pairs (earlier members of its band included)."""
    located = list(bands(root))
    found = []
    for path, band in located:
        for k, m in enumerate(band.members):
            found += [(m.name, x.name) for x in band.members[:k]]
            for other_path, other in located:
                if len(other_path) < len(path) and path[: len(other_path)] == other_path:
                    found += [(m.name, x.name) for x in other.members]
    return found


def sibling_nests(root: Node) -> list[tuple[str, str]]:
    """``(a, b)``: outermost loops of two nests under one sequence, ``a``'s first."""
    pairs = []
    for node in _nodes(root):
        if isinstance(node, SequenceNode):
            heads = [c.members[0].name for _, c in node.children if isinstance(c, Band)]
            pairs += [(a, b) for k, a in enumerate(heads) for b in heads[k + 1 :]]
    return pairs


def _nodes(node: Node) -> list[Node]:
    if isinstance(node, Band):
        return [node, *_nodes(node.child)]
    if isinstance(node, SequenceNode):
        return [node, *(n for _, child in node.children for n in _nodes(child))]
    return [node]


def neighbours(
    root: Node,
    sizes: Sequence[int] = (32,),
    factors: Sequence[int] = (1, -1),
    shifts: Sequence[int] = (),
) -> list[tuple[str, tuple[object, ...]]]:
    """The single edits whose shape fits the tree (``(method, arguments)``; legality is
    :func:`poly.schedule_check.check`'s business): interchange, wavefront and tiles (by each
    of ``sizes``) of consecutive perfectly nested loops, skews of a loop by a loop around it
    (each of ``factors``), reversal, strip-mining, shifts (each of ``shifts``), scaling by 2,
    fusion of sibling nests, distribution and parallel marks. The loops of bands tiled
    parametrically are left out."""
    fixed = {m.name for _, band in bands(root) if band.parametric for m in band.members}
    loops = [name for name in member_names(root) if name not in fixed]
    pairs = [(a, b) for a, b in perfect_pairs(root) if a not in fixed and b not in fixed]
    found: list[tuple[str, tuple[object, ...]]] = []
    for a, b in pairs:
        found += [("interchange", (a, b)), ("wavefront", ([a, b],))]
        found += [("tile", ([a, b], [size, size])) for size in sizes]
    for loop, outer in enclosing(root):
        if loop not in fixed and outer not in fixed:
            found += [("skew", (loop, {outer: f})) for f in factors]
    marked = {m.name for _, band in bands(root) for m in band.members if m.parallel}
    spread = set(distributable(root))
    for loop in loops:
        found += [("reverse", (loop,)), ("scale", (loop, 2))]
        found += [("strip_mine", (loop, size)) for size in sizes]
        found += [("shift", (loop, amount)) for amount in shifts]
        if loop in spread:
            found.append(("distribute", (loop,)))
        if loop not in marked:
            found.append(("parallel", (loop,)))
    found += [("fuse", pair) for pair in sibling_nests(root)]
    return found


def distributable(root: Node) -> list[str]:
    """The loops with a sequence below them through bands only (:func:`distribute`)."""
    found = []
    for _, band in bands(root):
        node = band.child
        while isinstance(node, Band):
            node = node.child
        if isinstance(node, SequenceNode):
            found += [m.name for m in band.members]
    return found
