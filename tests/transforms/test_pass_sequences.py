"""Random transformation sequences on random programs: whatever passes run, in whatever
order and with whatever options, the result computes what the input computed (a pass
that cannot prove a rewrite legal leaves the code alone). Programs come from two
generators: general nests (tests/nestgen.py) and perfect bands with stencil-like
dependences (tests/bandgen.py), where tiling, permutation and jamming are often legal and
often not."""

from __future__ import annotations

import pytest
from bandgen import bands
from dep_oracle import access_multiset
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nestgen import nests
from test_passes import run_pass

import affine
from affine.dialects.verifier import verify
from affine.exec.equivalence import check_equivalent
from affine.syntax.printer import print_module


@st.composite
def pass_configs(draw: st.DrawFn) -> tuple[str, str]:
    kind = draw(
        st.sampled_from(
            [
                "tile",
                "tile-model",
                "permute",
                "interchange",
                "skew",
                "unroll",
                "jam",
                "chains",
                "parallel",
            ]
        )
    )
    if kind == "tile":
        sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3))
        separate = " separate" if draw(st.booleans()) else ""
        return "affine-loop-tile", f"tile-sizes={','.join(map(str, sizes))}{separate}"
    if kind == "tile-model":
        return "affine-loop-tile", f"cache-size={draw(st.sampled_from([1, 4, 64]))}"
    if kind == "permute":
        n = draw(st.integers(2, 3))
        perm = draw(st.permutations(list(range(n))))
        return "test-loop-permutation", f"permutation-map={','.join(map(str, perm))}"
    if kind == "interchange":
        return "affine-loop-interchange", ""
    if kind == "skew":
        factors = draw(st.lists(st.integers(-1, 2), min_size=1, max_size=2))
        return "affine-loop-skew", f"skew-factors={','.join(map(str, factors))}"
    if kind == "unroll":
        factor = draw(st.sampled_from([-1, 2, 3, 4]))
        extra = draw(st.sampled_from(["", " unroll-up-to-factor", " cleanup-unroll"]))
        return "affine-loop-unroll", f"unroll-factor={factor}{extra if factor != -1 else ''}"
    if kind == "jam":
        return "affine-loop-unroll-jam", f"unroll-jam-factor={draw(st.integers(2, 3))}"
    if kind == "chains":
        chains, skew = draw(st.sampled_from([2, 3, 8])), draw(st.integers(0, 3))
        return "affine-interleave-chains", f"chains={chains} max-skew={skew} max-streams=0"
    return "affine-parallelize", "parallel-reductions" if draw(st.booleans()) else ""


def check_sequence(text: str, sequence: list[tuple[str, str]]) -> None:
    module = affine.parse(text, "nest.mlir")
    current = module
    for name, options in sequence:
        current, _ = run_pass(current, name, options)
        verify(current)
        current = affine.parse(print_module(current), "step.mlir")  # prints and reads back
    outcome = check_equivalent(module.functions()[0], current.functions()[0], backend="interp")
    assert outcome, (sequence, print_module(current), outcome)
    # every access of the input runs exactly once in the result (parallel reductions
    # aside, which reassociate through registers and keep the memory accesses)
    assert access_multiset(current) == access_multiset(module), (sequence, print_module(current))


programs = st.one_of(nests().map(lambda nest: nest.text), bands())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs, st.lists(pass_configs(), min_size=1, max_size=4))
def test_random_sequences(text, sequence) -> None:
    check_sequence(text, sequence)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs, st.lists(pass_configs(), min_size=1, max_size=4))
def test_random_sequences_many(text, sequence) -> None:
    check_sequence(text, sequence)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_random_programs_auto_scheduled_compute_the_same(text: str) -> None:
    # register tiles move accumulators into iter_args, so only the results are compared
    module = affine.parse(text, "nest.mlir")
    result, _ = run_pass(module, "affine-auto-schedule", "")
    verify(result)
    result = affine.parse(print_module(result), "step.mlir")
    outcome = check_equivalent(module.functions()[0], result.functions()[0], backend="interp")
    assert outcome, (print_module(result), outcome)
