"""Legality verdicts against brute force: every dependent pair of instances of a nest,
recorded at small sizes, decides whether a permutation, a tiling, an unroll-and-jam or a
parallel loop would run some pair in the wrong order."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from bandgen import perfect_bands
from conftest import CORPUS
from dep_oracle import (
    Instance,
    bind_index_arguments,
    dependent_pairs,
    index_argument_count,
    loop_distances,
    trace,
)
from hypothesis import HealthCheck, given, settings
from nestgen import nests

import affine
from affine.ir.core import Module, Operation, Value
from poly.flow import FlowAnalysis
from transforms.distribute import check_distribution, groups_of
from transforms.parallelization import check_parallel
from transforms.permutation import check_permutation
from transforms.tiling import check_tiling
from transforms.unroll_jam import check_unroll_and_jam

CORPUS = CORPUS
NESTS = sorted((CORPUS / "deps").glob("*.mlir"))


def lex_negative(v: tuple[int, ...]) -> bool:
    for x in v:
        if x:
            return x < 0
    return False


def check_nest(module: Module, runs: Sequence[Mapping[Value, int]] = ({},)) -> None:
    """Every verdict against the dependent pairs of brute-force runs with each binding of
    the symbols in ``runs`` (a verdict for all sizes must hold at each of them, and an
    illegal one must be broken at one of them)."""
    try:
        pairs = [
            pair
            for bindings in runs
            for pair in dependent_pairs(
                trace(module, bindings, max_instances=20_000), limit=300_000
            )
        ]
    except ValueError as e:
        pytest.skip(str(e))
    analysis = FlowAnalysis(module, value_based=False)
    walk_order = {op: k for k, op in enumerate(module.operation.walk())}  # as in the trace
    for band in perfect_bands(module):
        if any(op.name != "affine.for" for op in band[0].nested_ops() if op.regions):
            continue  # parallel loops inside: the band checks treat them as opaque
        distances = [d for a, b in pairs if (d := loop_distances(a, b, band)) is not None]
        tiling = check_tiling(band, analysis)
        assert bool(tiling) == all(min(d) >= 0 for d in distances), tiling.reason
        for permutation in itertools.permutations(range(len(band))):
            order = sorted(range(len(band)), key=lambda k: permutation[k])
            broken = any(lex_negative(tuple(d[k] for k in order)) for d in distances)
            verdict = check_permutation(band, permutation, analysis)
            assert bool(verdict) == (not broken), (permutation, verdict.reason)
    for op in module.operation.walk():
        if op.name != "affine.for" or len(op.regions[0].blocks[0].arguments) != 1:
            continue
        band = [op]
        while (
            len([x for x in band[-1].regions[0].blocks[0].operations if x.name != "affine.yield"])
            == 1
        ):
            inner = band[-1].regions[0].blocks[0].operations[0]
            if inner.name != "affine.for" or len(inner.regions[0].blocks[0].arguments) != 1:
                break
            band.append(inner)
        groups = groups_of(band[-1])
        if len(groups) >= 2:
            # distribution runs group k's iterations before group k + 1's: a dependence from
            # a later group to an earlier one inside the band, in one iteration of the loops
            # around it, would be reversed (one carried by a loop around it is not)
            group_of = {id(x): k for k, g in enumerate(groups) for top in g for x in top.walk()}
            backward = any(
                loop_distances(a, b, [op]) is not None and group_of[id(a.op)] > group_of[id(b.op)]
                for a, b in pairs
                if id(a.op) in group_of and id(b.op) in group_of
            )
            verdict = check_distribution(band, groups, analysis)
            assert bool(verdict) == (not backward), verdict.reason
    for op in module.operation.walk():
        if op.name != "affine.for":
            continue
        step = op.properties["step"].value
        inner = _loops_inside(op)
        around = [op, *inner]
        runs = _run_starts(op, walk_order)
        for factor in (2, 3):
            # Jammed, instances fewer than `factor` iterations apart run in the order of
            # their paths inside the loop, then of the loop's IV; within one run of ops
            # (copied whole), in the same inner iterations, by the IV before the position.
            jam = check_unroll_and_jam(op, factor, analysis)
            broken = False
            for a, b in pairs:
                d = _distances_from(a, b, op)
                if d is not None and 0 < d[0] < factor * step:
                    if _jammed_key(a, op, runs, 0) > _jammed_key(b, op, runs, 1):
                        broken = True
                        break
            assert bool(jam) == (not broken), (factor, jam.reason, around)
        carried = any((d := loop_distances(a, b, [op])) is not None and d[0] != 0 for a, b in pairs)
        has_iter_args = len(op.regions[0].blocks[0].arguments) > 1
        if not has_iter_args:
            assert bool(check_parallel(op, analysis=analysis)) == (not carried)


def _run_starts(
    loop: Operation, walk_order: Mapping[Operation, int]
) -> dict[Operation, int] | None:
    """Per op inside ``loop`` that is not an ``affine.for``, the walk index of the first op
    of its run: the ops between two ``affine.for`` (or the ends) of the block where it or
    its ancestor sits in the body of an ``affine.for``. None when a run holds an
    ``affine.parallel`` (then the jam is checked by position alone)."""
    starts: dict[Operation, int] = {}
    for block_owner in [loop, *(x for x in loop.nested_ops() if x.name == "affine.for")]:
        first = None
        for top in block_owner.regions[0].blocks[0].operations[:-1]:
            if top.name == "affine.for":
                first = None
                continue
            first = first or top
            for x in top.walk():
                if x.name == "affine.parallel":
                    return None
                starts[x] = walk_order[first]
    return starts


def _jammed_key(
    instance: Instance, loop: Operation, runs: Mapping[Operation, int] | None, copy: int
) -> tuple[int, ...]:
    """Where ``instance`` runs inside ``loop`` jammed, in the copy ``copy`` (0 before 1)."""
    below = instance.below(loop)
    if runs is None:
        return below
    return (*below[:-1], runs[instance.op], copy, below[-1])


def _loops_inside(op: Operation) -> list[Operation]:
    return [x for x in op.nested_ops() if x.name in ("affine.for", "affine.parallel")]


def _distances_from(a, b, loop: Operation) -> tuple[int, ...] | None:
    """Distances on ``loop`` and every common loop inside it, for pairs agreeing outside."""
    common = []
    for x, y in zip(a.loops, b.loops):
        if x is not y:
            break
        common.append(x)
    if loop not in common:
        return None
    start = common.index(loop)
    if any(a.ivs[k] != b.ivs[k] for k in range(start)):
        return None
    return tuple(b.ivs[k] - a.ivs[k] for k in range(start, len(common)))


@pytest.mark.parametrize("path", NESTS, ids=lambda p: p.name)
def test_verdicts_equal_brute_force(path: Path) -> None:
    text = path.read_text()
    module = affine.parse(text, str(path))
    if "oracle-args" in text:  # symbolic sizes: the verdicts hold for every size tried
        count = index_argument_count(module)
        check_nest(module, [bind_index_arguments(module, [n] * count) for n in range(9)])
    else:
        check_nest(module)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_nests(nest) -> None:
    check_nest(affine.parse(nest.text, "nest.mlir"))


def test_reasons_name_the_dependence() -> None:
    path = CORPUS / "deps" / "skewed_stencil.mlir"
    module = affine.parse(path.read_text(), "skew.mlir")
    (band,) = perfect_bands(module)
    verdict = check_tiling(band)
    assert not verdict
    assert verdict.reason == (
        "it would reverse the RAW dependence from affine.store at skew.mlir:6:7 to "
        "affine.load at skew.mlir:5:12 on %A with distance (1, -1)"
    )
    assert verdict.dependence is not None and verdict.dependence.kind == "RAW"
