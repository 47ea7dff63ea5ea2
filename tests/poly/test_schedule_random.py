"""Random programs (tests/nestgen.py, tests/bandgen.py) x random schedule edits: ``check()``
agrees with brute-force enumeration of the instance order (tests/schedule_oracle.py), the
tree ISL generates code from orders the instances as the printed 2d+1 map does, and every
schedule called legal, applied, computes the original's results (interpreter and C)."""

from __future__ import annotations

import itertools
import warnings

import pytest
from bandgen import bands
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from nestgen import nests
from schedule_oracle import first_broken, times

import affine
from affine.execute import check_equivalent
from poly.deps import AnalysisWarning
from poly.schedule import Schedule
from poly.schedule_check import ILLEGAL, LEGAL, UNKNOWN
from poly.schedule_program import ScheduleError
from poly.schedule_tree import Band, SequenceNode
from poly.schedule_tree import bands as tree_bands

EDITS = (
    "interchange",
    "skew",
    "reverse",
    "shift",
    "scale",
    "strip_mine",
    "tile",
    "wavefront",
    "fuse",
    "distribute",
    "parallel",
)


def _chains(s: Schedule) -> list[tuple[str, str]]:
    """Pairs of perfectly nested consecutive loops."""
    pairs = []
    for _, band in tree_bands(s.root):
        names = [m.name for m in band.members]
        pairs += list(itertools.pairwise(names))
        if isinstance(band.child, Band):
            pairs.append((names[-1], band.child.members[0].name))
    return pairs


def _outer(s: Schedule) -> list[tuple[str, str]]:
    """(loop, a loop around it) pairs."""
    found = []
    located = list(tree_bands(s.root))
    for path, band in located:
        for k, m in enumerate(band.members):
            found += [(m.name, x.name) for x in band.members[:k]]
            for other_path, other in located:
                if len(other_path) < len(path) and path[: len(other_path)] == other_path:
                    found += [(m.name, x.name) for x in other.members]
    return found


def _siblings(s: Schedule) -> list[tuple[str, str]]:
    pairs = []

    def visit(node) -> None:
        if isinstance(node, SequenceNode):
            heads = [c.members[0].name for _, c in node.children if isinstance(c, Band)]
            pairs.extend((a, b) for k, a in enumerate(heads) for b in heads[k + 1 :])
            for _, c in node.children:
                visit(c)
        elif isinstance(node, Band):
            visit(node.child)

    visit(s.root)
    return pairs


def random_edit(s: Schedule, data: st.DataObject) -> Schedule:
    """One random edit of ``s`` (or ``s`` when the drawn edit does not fit its shape)."""
    loops = s.loops
    if not loops:
        return s
    kind = data.draw(st.sampled_from(EDITS))
    loop = data.draw(st.sampled_from(loops))
    try:
        if kind in ("interchange", "tile", "wavefront"):
            chains = _chains(s)
            if not chains:
                return s
            a, b = data.draw(st.sampled_from(chains))
            if kind == "interchange":
                return s.interchange(a, b)
            if kind == "wavefront":
                return s.wavefront([a, b])
            return s.tile([a, b], [data.draw(st.integers(2, 3)), data.draw(st.integers(2, 4))])
        if kind == "skew":
            outer = [o for x, o in _outer(s) if x == loop]
            if not outer:
                return s
            return s.skew(loop, {data.draw(st.sampled_from(outer)): data.draw(st.integers(-1, 2))})
        if kind == "fuse":
            siblings = _siblings(s)
            if not siblings:
                return s
            return s.fuse(*data.draw(st.sampled_from(siblings)))
        if kind == "shift":
            return s.shift(loop, data.draw(st.integers(-2, 2)))
        if kind == "scale":
            return s.scale(loop, 2)
        if kind == "strip_mine":
            return s.strip_mine(loop, data.draw(st.integers(2, 3)))
        if kind == "reverse":
            return s.reverse(loop)
        if kind == "distribute":
            return s.distribute(loop)
        return s.parallel(loop)
    except ScheduleError:
        return s


def check_against_oracle(text: str, data: st.DataObject, backends: tuple[str, ...]) -> str:
    module = affine.parse(text, "random.mlir")
    function = module.functions()[0]
    try:
        original = Schedule.of(function)
    except ScheduleError:
        return "refused"
    s = original
    for _ in range(data.draw(st.integers(1, 3))):
        for _attempt in range(4):  # an edit that does not fit the shape changes nothing
            edited = random_edit(s, data)
            if edited is not s:
                s = edited
                break
    event("edited" if s.history else "not edited")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        verdict = s.check()
    broken = first_broken(module, s)
    context = f"{s.history_text()}\n{s}\n{verdict}\n{text}"
    if verdict.status == LEGAL:
        assert broken is None, f"called legal, but {broken} is broken:\n{context}"
    elif verdict.status == ILLEGAL:
        assert broken is not None, f"called illegal, but brute force finds it legal:\n{context}"
    else:
        assert verdict.status == UNKNOWN
        return "unknown"
    assert_same_order(s)
    if verdict.status == LEGAL:
        result = s.apply()
        again = affine.parse(affine.print_module(result), "applied.mlir")
        for backend in backends:
            outcome = check_equivalent(function, again.functions()[0], backend=backend)
            assert outcome, f"{outcome}\n{context}\n{affine.print_module(result)}"
    return verdict.status


def assert_same_order(s: Schedule) -> None:
    """The ISL tree code is generated from orders the instances as the 2d+1 map does."""
    theta = times(s)
    tau = times(s, s.tree().get_map())
    order = sorted(theta, key=theta.__getitem__)
    for x, y in itertools.pairwise(order):
        assert (theta[x] == theta[y]) == (tau[x] == tau[y]), (x, y)
        assert tau[x] <= tau[y], (x, y, tau[x], tau[y])


FAST = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SLOW = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FAST
@given(nests(), st.data())
def test_random_nests(nest, data) -> None:
    event(check_against_oracle(nest.text, data, ("interp",)))


@FAST
@given(bands(), st.data())
def test_random_bands(band, data) -> None:
    event(check_against_oracle(band, data, ("interp", "c")))


@pytest.mark.slow
@SLOW
@given(nests(), st.data())
def test_random_nests_long(nest, data) -> None:
    event(check_against_oracle(nest.text, data, ("interp", "c")))


@pytest.mark.slow
@SLOW
@given(bands(), st.data())
def test_random_bands_long(band, data) -> None:
    event(check_against_oracle(band, data, ("interp", "c")))
