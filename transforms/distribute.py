"""Loop distribution (fission): one copy of a perfect band per group of its body's ops.

``groups_of(loop)`` splits a loop body into the finest groups of consecutive ops that can
live in separate loops: ops connected by SSA values stay together (a value computed in one
group is not visible in another loop). ``distribute_band(band, groups)`` replaces the band
by ``len(groups)`` copies of it, in order, the innermost body of copy ``k`` holding the ops
of group ``k``: every iteration of group 1, then every iteration of group 2, and so on. It
does not check legality: :func:`check_distribution` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affine.dialects.affine_dialect import ForOp
from affine.ir.core import Operation, Value
from poly.flow import FlowAnalysis
from poly.legality import LEGAL, Verdict, analysis_for, describe, unsupported_ops
from transforms.errors import TransformError
from transforms.loop_pass import analysis_of
from transforms.loop_utils import body_ops, get_perfect_band, require_perfect_band


def _values_defined(ops: Sequence[Operation]) -> set[Value]:
    defined: set[Value] = set()
    for op in ops:
        for inner in op.walk():
            defined.update(inner.results)
            for region in inner.regions:
                for block in region.blocks:
                    defined.update(block.arguments)
    return defined


def groups_of(loop: Operation) -> list[list[Operation]]:
    """The body of ``loop`` cut into the most groups of consecutive ops such that no value
    defined in one group is used in another."""
    ops = body_ops(loop)
    index = {op: k for k, op in enumerate(ops)}
    owner: dict[Value, int] = {}
    for k, op in enumerate(ops):
        for value in _values_defined([op]):
            owner[value] = k
    # cut[k]: may a group boundary fall between ops k-1 and k?
    cut = [True] * (len(ops) + 1)
    for k, op in enumerate(ops):
        for inner in op.walk():
            for value in inner.operands:
                source = owner.get(value)
                if source is not None and source != index[op]:
                    for between in range(source + 1, k + 1):
                        cut[between] = False
    groups: list[list[Operation]] = []
    for k, op in enumerate(ops):
        if k == 0 or cut[k]:
            groups.append([])
        groups[-1].append(op)
    return groups


def distribute_band(
    band: Sequence[Operation], groups: Sequence[Sequence[Operation]]
) -> list[Operation]:
    """Replace the perfect ``band`` by one copy per group (see the module docstring); returns
    the new outermost loops. The groups must partition the innermost body, in order."""
    band = list(band)
    require_perfect_band(band)
    innermost = band[-1]
    if [op for group in groups for op in group] != body_ops(innermost):
        raise TransformError("the groups must list the loop body's ops in order", innermost.loc)
    for loop in band:
        if loop.results or len(ForOp(loop).body.arguments) > 1:
            raise TransformError("cannot distribute loops with iter_args", loop.loc)
    if len(groups) < 2:
        return [band[0]]
    outer = band[0]
    block = outer.parent
    assert block is not None
    copies = []
    for group in groups:
        keep = {id(op) for op in group}
        copy = outer.clone({})
        copy_band = [copy]
        while len(copy_band) < len(band):
            copy_band.append(body_ops(copy_band[-1])[0])
        originals = body_ops(innermost)
        for original, cloned in zip(originals, body_ops(copy_band[-1])):
            if id(original) not in keep:
                cloned.erase()
        copies.append(copy)
    position = block.index_of(outer)
    for offset, copy in enumerate(copies):
        block.insert(position + offset, copy)
    outer.erase()
    return copies


def check_distribution(
    band: Sequence[Operation],
    groups: Sequence[Sequence[Operation]],
    analysis: FlowAnalysis | None = None,
) -> Verdict:
    """Can the band be distributed over ``groups`` of its innermost body (all of group 1's
    iterations, then all of group 2's, ...)? Illegal when a dependence inside the band goes
    from a later group to an earlier one: distribution would run its target first. One
    carried only by loops around the band is kept (its source runs in an earlier iteration
    of such a loop, before the whole band)."""
    verdict = unsupported_ops(band)
    if not verdict:
        return verdict
    analysis = analysis_for(band[0], analysis)
    group_of = {id(op): k for k, group in enumerate(groups) for top in group for op in top.walk()}
    for edge in analysis.memory:
        position = next((k for k, ref in enumerate(edge.common) if ref.op is band[0]), None)
        if position is None:
            continue
        if not edge.loop_independent and all(k < position for k in edge.carried):
            continue  # carried by a loop around the band: its ends stay in their iterations
        source = group_of.get(id(edge.source.op))
        target = group_of.get(id(edge.target.op))
        if source is None or target is None or source <= target:
            continue
        return Verdict(
            False,
            f"the {describe(edge)} goes from a later part of the body to an earlier one",
            edge,
        )
    return LEGAL


def distribute_for_tiling(function: Operation) -> None:
    """Distribute every outermost band whose innermost body holds loops among other parts,
    where legal, until each band is perfect or cannot be split further."""

    def outermost_bands(function: Operation) -> list[list[Operation]]:
        top = function.regions[0].blocks[0].operations
        return [get_perfect_band(loop) for loop in top if loop.name == "affine.for"]

    _distribute_until_done(function, outermost_bands)


def distribute_imperfect_loops(
    function: Operation,
    worth: Callable[[Operation, Sequence[Sequence[Operation]]], bool] | None = None,
) -> None:
    """Distribute every loop (inner loops first) whose body holds loops among other parts
    into one loop per part, where legal (and where ``worth(loop, groups)`` holds), until no
    such loop can be split further: innermost nests become perfect bands of their own
    where the dependences allow."""

    def every_loop(function: Operation) -> list[list[Operation]]:
        return [[op] for op in function.walk(post_order=True) if op.name == "affine.for"]

    _distribute_until_done(function, every_loop, worth)


def _distribute_until_done(
    function: Operation,
    bands: Callable[[Operation], list[list[Operation]]],
    worth: Callable[[Operation, Sequence[Sequence[Operation]]], bool] | None = None,
) -> None:
    """Distribute the first of ``bands(function)`` whose innermost body holds loops among
    other parts, where legal (and ``worth`` it), again and again until none can be."""
    changed = True
    while changed:
        changed = False
        analysis = analysis_of(function)
        for band in bands(function):
            groups = groups_of(band[-1])
            if len(groups) < 2 or not any(
                inner.name == "affine.for"
                for group in groups
                for op in group
                for inner in op.walk()
            ):
                continue
            if worth is not None and not worth(band[-1], groups):
                continue
            if check_distribution(band, groups, analysis):
                try:
                    distribute_band(band, groups)
                except TransformError:
                    continue
                changed = True
                break
