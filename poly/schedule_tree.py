"""The tree of a schedule: bands of named loops, sequences of filtered subtrees, leaves.

Invariant: a tree orders the instances that reach it exactly as ISL's schedule tree of the
same shape does (:func:`to_isl` builds that tree): a :class:`Band` orders them by its
members' values, lexicographically, then by its child; a :class:`SequenceNode` runs the
instances of each child's filter after those of the children before it; a leaf runs what
reaches it. Every node is immutable: edits build new nodes and share the rest.

Each band member is a loop with a name unique in the tree (``%i`` for a source loop, derived
names such as ``%i.tile`` for generated ones, ``c<k>`` for a dimension of a map given by the
user that is no source loop) and a ``parallel`` mark (ISL's *coincident* flag). A band can
hold the sizes it was tiled with (:attr:`Band.tiles`, for separating full tiles) or the
SSA names of parametric tile sizes (:attr:`Band.parametric`, an ISL mark above it).

:func:`from_program` gives the tree of the source's order (one single-member band per loop,
an ``affine.parallel`` one band of all its IVs, a sequence where a block holds several
items, ``affine.if`` blocks spliced into the enclosing sequence); :func:`from_map` and
:func:`from_isl` read the user's schedules (a map in the 2d+1 form or any other, a tree);
:func:`flat_maps` gives the 2d+1 map of a tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

import islpy as isl

from affine.ir.core import Operation
from poly.context import IslBudgetExceeded, budget, isl_context
from poly.schedule_program import Program, ScheduleError, Statement
from poly.space import band_mark, band_mark_index, mark_id, tile_mark, tile_mark_sizes


@dataclass(frozen=True, eq=False)
class Member:
    """One loop of a band: its name, its value on the statements below, its parallel mark."""

    name: str
    expr: isl.UnionPwAff
    parallel: bool = False


@dataclass(frozen=True, eq=False)
class Band:
    members: tuple[Member, ...]
    child: Node
    # the tile band of a tiling: (tile member, point member in the child band, size) each
    tiles: tuple[tuple[str, str, int], ...] = ()
    parametric: tuple[str, ...] = ()  # tiled by these SSA values after code generation


@dataclass(frozen=True, eq=False)
class SequenceNode:
    children: tuple[tuple[isl.UnionSet, Node], ...]  # (filter, subtree), in execution order


@dataclass(frozen=True, eq=False)
class Leaf:
    pass


Node = Band | SequenceNode | Leaf
LEAF = Leaf()
# ISL operations reading one statement's schedule as functions may take: a fused schedule
# whose slice inverts ``(5 * i) mod 64`` under a size parameter took 30 s (under 10**6
# operations); 2 * 10**5 stop it within a few seconds, and the tests' fused schedules with
# mod and floordiv subscripts need more than 2 * 10**4
READ_BUDGET = 200_000
Path = tuple[int, ...]


def _empty_union_set() -> isl.UnionSet:
    return isl.UnionSet.empty(isl.Space.params_alloc(isl_context(), 0))


def universe_of(statements: list[Statement]) -> isl.UnionSet:
    """The filter selecting every instance of ``statements``."""
    result = _empty_union_set()
    for s in statements:
        result = result.union(isl.UnionSet.from_set(isl.Set.universe(s.space)))
    return result


def statements_in(program: Program, domain: isl.UnionSet) -> list[Statement]:
    """The statements with a point (for some parameters) in ``domain``, in order."""
    found = {
        domain.get_set_list().get_at(k).get_tuple_name()
        for k in range(domain.get_set_list().n_set())
        if not domain.get_set_list().get_at(k).is_empty()
    }
    return [s for s in program.statements if s.name in found]


def piece_of(expr: isl.UnionPwAff, s: Statement) -> isl.PwAff:
    """The part of ``expr`` on the instances of ``s`` (empty where it is not defined)."""
    return expr.extract_pw_aff(s.space.from_domain().add_dims(isl.dim_type.out, 1))


def iv_expr(statements: list[tuple[Statement, int]]) -> isl.UnionPwAff:
    """``{ S[..] -> [dim k] }`` for each ``(S, k)``."""
    return _union(
        [
            isl.UnionPwAff.from_pw_aff(
                isl.PwAff.var_on_domain(isl.LocalSpace.from_space(s.space), isl.dim_type.set, k)
            )
            for s, k in statements
        ]
    )


# -- the source's order ----------------------------------------------------------------------


def from_program(program: Program) -> Node:
    """The tree of the source's execution order."""
    return _block_tree(program, program.function.regions[0].blocks[0].operations)


def _items(program: Program, ops: list[Operation]) -> list[tuple[list[Statement], object]]:
    """The items of a block: loops and statements in textual order (``affine.if`` blocks
    spliced in), each with the statements it holds."""
    items: list[tuple[list[Statement], object]] = []
    for op in ops:
        s = program.statement_of(op)
        if s is not None:
            if s.ops[0] is op:
                items.append(([s], s))
        elif op.name in ("affine.for", "affine.parallel"):
            held = _held(program, op)
            if held:
                items.append((held, op))
        elif op.name == "affine.if":
            for region in op.regions:
                for block in region.blocks:
                    items.extend(_items(program, block.operations))
    return items


def _held(program: Program, op: Operation) -> list[Statement]:
    return list(dict.fromkeys(s for x in op.walk() if (s := program.statement_of(x)) is not None))


def _block_tree(program: Program, ops: list[Operation]) -> Node:
    items = _items(program, ops)
    if not items:
        return LEAF
    children = tuple((universe_of(held), _item_tree(program, item)) for held, item in items)
    return children[0][1] if len(children) == 1 else SequenceNode(children)


def _item_tree(program: Program, item: object) -> Node:
    if not isinstance(item, Operation):
        return LEAF
    loop = item
    held = _held(program, loop)
    count = len(loop.regions[0].blocks[0].arguments) if loop.name == "affine.parallel" else 1
    members = []
    for k in range(count):
        position = held[0].loops.index(loop)
        dim = sum(
            len(x.regions[0].blocks[0].arguments) if x.name == "affine.parallel" else 1
            for x in held[0].loops[:position]
        )
        expr = iv_expr([(s, dim + k) for s in held])
        name = held[0].loop_names[dim + k]
        members.append(Member(name, expr, parallel=loop.name == "affine.parallel"))
    return Band(tuple(members), _block_tree(program, loop.regions[0].blocks[0].operations))


# -- ISL trees -----------------------------------------------------------------------------------


def member_multi(members: tuple[Member, ...] | list[Member]) -> isl.MultiUnionPwAff:
    """The members' values as one partial schedule."""
    upas = isl.UnionPwAffList.alloc(isl_context(), len(members))
    for m in members:
        upas = upas.add(m.expr)
    space = isl.Space.set_alloc(isl_context(), 0, len(members))
    return isl.MultiUnionPwAff.from_union_pw_aff_list(space, upas)


BandHook = Callable[[Band, isl.ScheduleNode], isl.ScheduleNode]


def to_isl(node: Node, domain: isl.UnionSet, band_hook: BandHook | None = None) -> isl.Schedule:
    """ISL's schedule tree of ``node`` over ``domain``. Parallel members are coincident; a
    band tiled parametrically gets its :func:`poly.space.tile_mark` above it; ``band_hook``
    may set AST options on each band node of the whole tree (it returns the node, or the node
    of the band's innermost part when it splits the band)."""
    if band_hook is None:
        return _build(node, domain, None)
    bands: list[Band] = []
    schedule = _build(node, domain, bands)
    return _call_band_hooks(schedule.get_root(), bands, band_hook).get_schedule()


def _build(node: Node, domain: isl.UnionSet, bands: list[Band] | None) -> isl.Schedule:
    """:func:`to_isl` without hooks; with ``bands``, each band gets a :func:`band_mark` above
    it, numbered by its place in ``bands``."""
    if isinstance(node, Leaf):
        return isl.Schedule.from_domain(domain)
    if isinstance(node, SequenceNode):
        result: isl.Schedule | None = None
        for filter_, child in node.children:
            part = _build(child, domain.intersect(filter_), bands)
            result = part if result is None else result.sequence(part)
        assert result is not None
        return result
    schedule = _build(node.child, domain, bands).insert_partial_schedule(member_multi(node.members))
    band = schedule.get_root().child(0)
    for k, m in enumerate(node.members):
        if m.parallel:
            band = band.band_member_set_coincident(k, 1)
    if node.tiles or node.parametric:
        band = band.band_set_permutable(1)
    if bands is not None:
        band = band.insert_mark(mark_id(band_mark(len(bands))))
        bands.append(node)
    if node.parametric:
        band = band.insert_mark(mark_id(tile_mark(node.parametric)))
    return band.get_schedule()


def _call_band_hooks(
    node: isl.ScheduleNode, bands: list[Band], band_hook: BandHook
) -> isl.ScheduleNode:
    """``node``'s subtree with each :func:`band_mark` replaced by ``band_hook`` applied to the
    band below it, where the band's schedule depth and outer loops are those of the whole
    tree (AST options that name outer loops anchor a subtree, so ISL inserts no band above
    them: they are set last). Returns the node at ``node``'s position."""
    position = node.get_tree_depth()
    if node.get_type() == isl.schedule_node_type.mark:
        index = band_mark_index(node.mark_get_id().get_name())
        if index is not None:
            node = band_hook(bands[index], node.delete())
    for k in range(node.n_children()):
        node = _call_band_hooks(node.child(k), bands, band_hook).parent()
    return node.ancestor(node.get_tree_depth() - position)


def from_isl(schedule: isl.Schedule, program: Program) -> Node:
    """The tree of an ISL schedule tree over the program's statements (sequence and set
    nodes become sequences, marks other than tile marks are dropped)."""
    root = schedule.get_root()
    where = program.function.loc
    if root.get_type() != isl.schedule_node_type.domain:
        raise ScheduleError("a schedule tree must start with a domain node", where)
    domain = root.domain_get_domain()
    sets = domain.get_set_list()
    for k in range(sets.n_set()):
        program.statement(sets.get_at(k).get_tuple_name())
    missing = [
        s.name for s in program.statements if not s.domain.is_subset(domain.extract_set(s.space))
    ]
    if missing:
        raise ScheduleError(
            f"the schedule tree's domain leaves out instances of {', '.join(missing)}", where
        )
    names = _Names(program)
    return (
        _from_isl_node(root.child(0), program, names, program.universe)
        if root.has_children()
        else LEAF
    )


def _from_isl_node(
    node: isl.ScheduleNode, program: Program, names: _Names, domain: isl.UnionSet
) -> Node:
    kind = node.get_type()
    t = isl.schedule_node_type
    if kind == t.leaf:
        return LEAF
    if kind == t.band:
        partial = node.band_get_partial_schedule()
        members = []
        for k in range(node.band_n_member()):
            expr = partial.get_at(k)
            members.append(
                Member(names.member(expr, domain), expr, bool(node.band_member_get_coincident(k)))
            )
        return Band(tuple(members), _from_isl_node(node.child(0), program, names, domain))
    if kind in (t.sequence, t.set):
        children = []
        for k in range(node.n_children()):
            filter_node = node.child(k)
            filter_ = filter_node.filter_get_filter()
            child = (
                _from_isl_node(filter_node.child(0), program, names, domain.intersect(filter_))
                if filter_node.has_children()
                else LEAF
            )
            if isinstance(child, SequenceNode):  # ISL nests a set in a sequence: splice it
                children.extend((filter_.intersect(f), c) for f, c in child.children)
            else:
                children.append((filter_, child))
        return SequenceNode(tuple(children))
    if kind == t.filter:
        if not domain.is_subset(node.filter_get_filter()):
            raise ScheduleError(
                "a filter node outside a sequence drops instances: every instance must be "
                "scheduled",
                program.function.loc,
            )
        return _from_isl_node(node.child(0), program, names, domain)
    if kind == t.mark:
        child = _from_isl_node(node.child(0), program, names, domain)
        sizes = tile_mark_sizes(node.mark_get_id().get_name())
        if sizes is not None and isinstance(child, Band):
            return replace(child, parametric=tuple(sizes))
        return child
    raise ScheduleError(
        f"schedule tree nodes of type '{_kind_name(kind)}' are not supported (domain, band, "
        "sequence, set, filter, mark and leaf nodes are)",
        program.function.loc,
    )


def _kind_name(kind: int) -> str:
    for name in ("context", "guard", "expansion", "extension"):
        if kind == getattr(isl.schedule_node_type, name):
            return name
    return str(kind)


class _Names:
    """Names for the members of a user's schedule: a member that is exactly one source loop
    of every statement it covers takes that loop's name; any other is ``c<k>``, numbered in
    the order they are met. (A map has no parallel marks: its loops are sequential.)"""

    def __init__(self, program: Program, used: set[str] | None = None) -> None:
        self.program = program
        self.used: set[str] = set(used or ())
        self.count = 0

    def member(self, expr: isl.UnionPwAff, domain: isl.UnionSet) -> str:
        name = source_loop(expr, self.program, domain)
        if name is None or name in self.used:
            while f"c{self.count}" in self.used:
                self.count += 1
            name = f"c{self.count}"
        self.used.add(name)
        return name


def source_loop(expr: isl.UnionPwAff, program: Program, domain: isl.UnionSet) -> str | None:
    """The name of the source loop ``expr`` is on every statement of ``domain`` it covers,
    if it is one."""
    found: str | None = None
    for s in statements_in(program, domain):
        name = _plain_iv(piece_of(expr, s), s)
        if name is None or (found is not None and name != found):
            return None
        found = name
    return found


def _plain_iv(pa: isl.PwAff, s: Statement) -> str | None:
    if pa.domain().is_empty():
        return None
    for k in range(s.depth):
        var = isl.PwAff.var_on_domain(isl.LocalSpace.from_space(s.space), isl.dim_type.set, k)
        var = var.intersect_domain(pa.domain())
        if pa.is_equal(var):
            return s.loop_names[k]
    return None


def from_map(schedule: isl.UnionMap, program: Program) -> Node:
    """The tree of a schedule map ``{ S[..] -> [t0, t1, ...] }`` (any number of dims; shorter
    ones are padded with zeros): a dimension constant on every statement splits them into a
    sequence (one that is the same for all is dropped), any other is a band member."""
    rows = _padded(_rows(schedule, program, list(program.statements)), program)
    width = max((len(r) for r in rows.values()), default=0)
    return _map_tree(list(rows), rows, 0, width, program, _Names(program))


def band_from_map(
    schedule: isl.UnionMap, program: Program, statements: list[Statement], taken: set[str]
) -> tuple[Member, ...]:
    """One band member per dimension of ``schedule`` (a map on exactly ``statements``);
    names avoid ``taken``."""
    rows = _padded(_rows(schedule, program, statements), program)
    width = max((len(r) for r in rows.values()), default=0)
    names = _Names(program, taken)
    members = []
    for k in range(width):
        expr = _union([isl.UnionPwAff.from_pw_aff(r[k]) for r in rows.values()])
        name = names.member(expr, universe_of(statements))
        members.append(Member(name, expr))
    return tuple(members)


def _padded(rows: dict[str, list[isl.PwAff]], program: Program) -> dict[str, list[isl.PwAff]]:
    width = max((len(r) for r in rows.values()), default=0)
    return {n: r + [_zero(program.statement(n))] * (width - len(r)) for n, r in rows.items()}


def _union(pieces: list[isl.UnionPwAff]) -> isl.UnionPwAff:
    result = pieces[0]
    for piece in pieces[1:]:
        result = result.union_add(piece)
    return result


def _zero(s: Statement) -> isl.PwAff:
    return isl.PwAff.zero_on_domain(isl.LocalSpace.from_space(s.space))


def _rows(
    schedule: isl.UnionMap, program: Program, statements: list[Statement]
) -> dict[str, list[isl.PwAff]]:
    """Each statement's schedule as a list of functions on its instances (checked to give
    exactly ``statements``, on every instance, single-valued)."""
    rows: dict[str, list[isl.PwAff]] = {}
    expected = {s.name for s in statements}
    maps = schedule.get_map_list()
    where = program.function.loc
    for k in range(maps.n_map()):
        m = maps.get_at(k)
        s = program.statement(m.get_tuple_name(isl.dim_type.in_))
        if s.name not in expected:
            raise ScheduleError(
                f"the schedule gives {s.name}, which is not among {', '.join(sorted(expected))}",
                where,
            )
        if m.dim(isl.dim_type.in_) != s.depth:
            raise ScheduleError(
                f"the schedule gives {s.name} {m.dim(isl.dim_type.in_)} dimensions; "
                f"it has {s.depth} ({', '.join(s.loop_names) or 'no loops'})",
                where,
            )
        on_domain = m.intersect_domain(s.domain)
        if not s.domain.is_subset(on_domain.domain()):
            raise ScheduleError(f"the schedule of {s.name} leaves some of its instances out", where)
        if not on_domain.is_single_valued():
            raise ScheduleError(
                f"the schedule of {s.name} maps an instance to several times", where
            )
        # as written where it is a function (on the domain, equalities would replace
        # dimensions that take one value by that value)
        try:
            with budget(READ_BUDGET, f"reading the schedule of {s.name}"):
                pma = isl.PwMultiAff.from_map(m if m.is_single_valued() else on_domain)
        except IslBudgetExceeded as e:
            raise ScheduleError(
                f"the schedule of {s.name} cannot be read as functions of its instances "
                f"within {e.max_operations} ISL operations",
                where,
            ) from e
        rows[s.name] = [pma.get_pw_aff(j) for j in range(pma.dim(isl.dim_type.out))]
    for s in statements:
        if s.name not in rows and s.domain.is_empty():
            rows[s.name] = [_zero(s)]  # never runs (ISL drops its empty map): any time will do
    missing = [s.name for s in statements if s.name not in rows]
    if missing:
        raise ScheduleError(f"the schedule does not schedule {', '.join(missing)}", where)
    return {s.name: rows[s.name] for s in statements}


def _constant(pa: isl.PwAff, s: Statement) -> int | None:
    """The value of a dimension that is a constant (as written) on ``s``'s instances."""
    if not pa.is_cst():
        return None
    values = isl.Map.from_pw_aff(pa).intersect_domain(s.domain).range()
    if values.is_empty():  # no instance: the constant as written
        values = isl.Map.from_pw_aff(pa).range()
    if values.is_empty():
        return 0
    point = values.sample_point()
    value = point.get_coordinate_val(isl.dim_type.set, 0)
    single = isl.Set.universe(values.get_space()).fix_val(isl.dim_type.set, 0, value)
    return value.to_python() if values.is_subset(single) else None


def _map_tree(
    group: list[str],
    rows: Mapping[str, list[isl.PwAff]],
    k: int,
    width: int,
    program: Program,
    names: _Names,
) -> Node:
    if k == width:
        return LEAF
    statements = [program.statement(n) for n in group]
    constants = [_constant(rows[s.name][k], s) for s in statements]
    known = [c for c in constants if c is not None]
    if len(known) == len(constants):
        values = sorted(set(known))
        if len(values) == 1:
            return _map_tree(group, rows, k + 1, width, program, names)
        children: list[tuple[isl.UnionSet, Node]] = []
        for v in values:
            part = [s for s, c in zip(statements, constants) if c == v]
            child = _map_tree([s.name for s in part], rows, k + 1, width, program, names)
            if isinstance(child, SequenceNode):  # two constant dims in a row: splice it
                children.extend((universe_of(part).intersect(f), c) for f, c in child.children)
            else:
                children.append((universe_of(part), child))
        return SequenceNode(tuple(children))
    expr = _union([isl.UnionPwAff.from_pw_aff(rows[s.name][k]) for s in statements])
    name = names.member(expr, universe_of(statements))
    return Band(
        (Member(name, expr),),
        _map_tree(group, rows, k + 1, width, program, names),
    )


# -- the 2d+1 map ---------------------------------------------------------------------------


def flat_rows(
    node: Node, program: Program, domain: isl.UnionSet
) -> Iterator[tuple[Statement, isl.Set, list[isl.PwAff]]]:
    """For each statement piece reaching a leaf: the statement, the piece of its instances
    (within ``domain``) and its 2d+1 vector (a constant before every loop dimension and at
    the end: the position in each sequence, 0 elsewhere)."""
    yield from _flat(node, program, domain, [])


def _flat(
    node: Node, program: Program, domain: isl.UnionSet, prefix: list[tuple[int, Member | None]]
) -> Iterator[tuple[Statement, isl.Set, list[isl.PwAff]]]:
    if isinstance(node, SequenceNode):
        for k, (filter_, child) in enumerate(node.children):
            yield from _flat(child, program, domain.intersect(filter_), [*prefix, (k, None)])
        return
    if isinstance(node, Band):
        entries = list(prefix)
        for m in node.members:
            entries.append((0, m))
        yield from _flat(node.child, program, domain, entries)
        return
    for s in statements_in(program, domain):
        piece = domain.extract_set(s.space)
        row: list[isl.PwAff] = []
        position = 0
        for value, member in prefix:
            if member is None:
                position = value
                continue
            row.append(isl.PwAff.val_on_domain(isl.Set.universe(s.space), _val(position)))
            row.append(piece_of(member.expr, s))
            position = 0
        row.append(isl.PwAff.val_on_domain(isl.Set.universe(s.space), _val(position)))
        yield s, piece, row


def _val(value: int) -> isl.Val:
    return isl.Val.int_from_si(isl_context(), value)


def flat_maps(
    node: Node, program: Program, domain: isl.UnionSet | None = None
) -> dict[str, isl.Map]:
    """Each statement's 2d+1 map, padded with zeros to one width for all; on ``domain``
    (the statements' universes by default, which prints without constraints)."""
    if domain is None:
        domain = universe_of(list(program.statements))
    rows = list(flat_rows(node, program, domain))
    width = max((len(r) for _, _, r in rows), default=1)
    result = {
        s.name: isl.Map.empty(s.space.from_domain().add_dims(isl.dim_type.out, width))
        for s in program.statements
    }
    for s, piece, row in rows:
        zero = isl.PwAff.zero_on_domain(isl.LocalSpace.from_space(s.space))
        pieces = isl.PwAffList.alloc(isl_context(), width)
        for pa in row + [zero] * (width - len(row)):
            pieces = pieces.add(pa)
        target = s.space.from_domain().add_dims(isl.dim_type.out, width)
        m = isl.Map.from_multi_pw_aff(isl.MultiPwAff.from_pw_aff_list(target, pieces))
        result[s.name] = result[s.name].union(m.intersect_domain(piece))
    return result


# -- walking and rebuilding ------------------------------------------------------------------


def bands(node: Node, path: Path = ()) -> Iterator[tuple[Path, Band]]:
    """Every band in preorder, with its path (child indices from the root)."""
    if isinstance(node, Band):
        yield path, node
        yield from bands(node.child, (*path, 0))
    elif isinstance(node, SequenceNode):
        for k, (_, child) in enumerate(node.children):
            yield from bands(child, (*path, k))


def at(node: Node, path: Path) -> Node:
    for k in path:
        if isinstance(node, Band):
            node = node.child
        else:
            assert isinstance(node, SequenceNode)
            node = node.children[k][1]
    return node


def replace_at(node: Node, path: Path, new: Node) -> Node:
    """The tree with the subtree at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(node, Band):
        return replace(node, child=replace_at(node.child, rest, new))
    assert isinstance(node, SequenceNode)
    children = list(node.children)
    filter_, child = children[head]
    children[head] = (filter_, replace_at(child, rest, new))
    return SequenceNode(tuple(children))


def domain_at(node: Node, path: Path, domain: isl.UnionSet) -> isl.UnionSet:
    """The instances of ``domain`` that reach the node at ``path``."""
    for k in path:
        if isinstance(node, SequenceNode):
            domain = domain.intersect(node.children[k][0])
            node = node.children[k][1]
        else:
            assert isinstance(node, Band)
            node = node.child
    return domain


def member_names(node: Node) -> list[str]:
    return [m.name for _, band in bands(node) for m in band.members]
