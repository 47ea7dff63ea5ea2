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
from affine.exec.equivalence import check_equivalent
from poly.deps import AnalysisWarning
from poly.schedule import Schedule
from poly.schedule_check import ILLEGAL, LEGAL, UNKNOWN
from poly.schedule_program import ScheduleError


def random_edit(s: Schedule, data: st.DataObject) -> Schedule:
    """One random edit of ``s`` among those that fit its shape (``s`` when none does)."""
    candidates = s.neighbours(sizes=(2, 3), factors=(-1, 1, 2), shifts=(-2, 1))
    if not candidates:
        return s
    return s.replay([data.draw(st.sampled_from(candidates))])


def check_against_oracle(text: str, data: st.DataObject, backends: tuple[str, ...]) -> str:
    module = affine.parse(text, "random.mlir")
    function = module.functions()[0]
    try:
        original = Schedule.of(function)
    except ScheduleError:
        return "refused"
    s = original
    for _ in range(data.draw(st.integers(1, 3))):
        s = random_edit(s, data)
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
    max_examples=250,
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


# A band the random test above found miscompiled: skewed twice, its code (Schedule.apply)
# runs right in the interpreter, and ran wrong in the C backend when gcc (12.2, -O3)
# distributed the loop, taking the copy `B[j + 4] = A[i + 3][j + 4]` out of the loop that
# writes row i + 3 in later iterations (affine.exec.toolchain.GCC_FLAGS now turns that off).
SKEWED_TWICE = """
func.func @band(%A: memref<15x15xf32>, %B: memref<15xf32>) {
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = max affine_map<(d0) -> (0, d0 - 2)>(%i0) to min affine_map<(d0) -> (7, d0 + 3)>(%i0) {
      affine.for %i2 = 0 to affine_map<(d0) -> (d0 + 1)>(%i0) {
        %a0 = affine.load %A[%i0 + 4, %i2 + 3] : memref<15x15xf32>
        %b0 = affine.load %B[%i0 + 5] : memref<15xf32>
        %c0 = arith.constant 0.5 : f32
        %m0 = arith.mulf %a0, %c0 : f32
        %s0 = arith.addf %m0, %b0 : f32
        affine.store %s0, %A[%i0 + 3, %i2 + 3] : memref<15x15xf32>
        affine.store %a0, %B[%i0 + 5] : memref<15xf32>
        %a1 = affine.load %A[%i0 + 3, %i2 + 4] : memref<15x15xf32>
        %b1 = affine.load %B[%i1 + 4] : memref<15xf32>
        %c1 = arith.constant 0.5 : f32
        %m1 = arith.mulf %a1, %c1 : f32
        %s1 = arith.addf %m1, %b1 : f32
        affine.store %s1, %A[%i0 + 4, %i2 + 4] : memref<15x15xf32>
        affine.store %a1, %B[%i2 + 4] : memref<15xf32>
      }
    }
  }
  return
}
"""


def test_a_band_skewed_twice_runs_right_in_the_c_backend() -> None:
    function = affine.parse(SKEWED_TWICE, "band.mlir").functions()[0]
    s = Schedule.of(function).skew("%i2", {"%i1": -1}).skew("%i1", {"%i0": 2})
    assert s.check().status == LEGAL
    again = affine.parse(affine.print_module(s.apply()), "applied.mlir").functions()[0]
    for backend in ("interp", "c"):
        assert check_equivalent(function, again, backend=backend)
