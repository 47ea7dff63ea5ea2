"""Random affine nests (tests/nestgen.py): the interpreter and the C backend agree, and
check_equivalent tells equal programs from different ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nestgen import Nest, nests

import affine
from affine.exec.equivalence import check_equivalent, compare_arrays
from affine.exec.inputs import random_inputs, resolve_function
from affine.exec.running import run

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(nests(), st.integers(0, 2**16))
def test_interpreter_and_c_backend_agree(nest: Nest, seed: int) -> None:
    func = resolve_function(affine.parse(nest.text))
    expected = random_inputs(func, seed)
    got = [a.copy() for a in expected]
    run(func, *expected, backend="interp")
    run(func, *got, backend="c")
    for a, (x, y) in enumerate(zip(expected, got)):
        mismatch = compare_arrays(x, y, a)
        assert mismatch is None, f"{mismatch}\n{nest.text}"


@SETTINGS
@given(nests())
def test_printed_nests_run_like_the_original(nest: Nest) -> None:
    module = affine.parse(nest.text)
    reread = affine.parse(affine.print_module(module))
    assert check_equivalent(module, reread)


@SETTINGS
@given(nests())
def test_check_equivalent_sees_a_changed_result(nest: Nest) -> None:
    first_type = nest.text.split("%A0: ")[1].split(")")[0].split(", %A")[0]
    zero_index = ", ".join("0" for _ in nest.shapes[0])
    constant = "123.0" if nest.element == "f32" else "123"
    extra = f"  %marker = arith.constant {constant} : {nest.element}\n  affine.store %marker, %A0[{zero_index}] : {first_type}\n  return\n}}\n"
    changed = nest.text[: nest.text.rindex("  return")] + extra
    outcome = check_equivalent(affine.parse(nest.text), affine.parse(changed), seed=3)
    assert not outcome and outcome.mismatches[0].arg == 0
    assert "argument #0 differs at [" in str(outcome)


def test_check_equivalent_accepts_reassociated_float_sums() -> None:
    forward = """func.func @s(%x: memref<64xf32>, %out: memref<1xf32>) {
  %z = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to 64 iter_args(%a = %z) -> (f32) {
    %v = affine.load %x[%i] : memref<64xf32>
    %n = arith.addf %a, %v : f32
    affine.yield %n : f32
  }
  affine.store %s, %out[0] : memref<1xf32>
  return
}
"""
    backward = forward.replace("%v = affine.load %x[%i]", "%v = affine.load %x[63 - %i]")
    x = np.random.default_rng(1).uniform(-1, 1, 64).astype(np.float32)
    args = (x, np.zeros(1, np.float32))
    # the two summation orders round differently...
    a, b = [x.copy(), np.zeros(1, np.float32)], [x.copy(), np.zeros(1, np.float32)]
    run(affine.parse(forward), *a, backend="interp")
    run(affine.parse(backward), *b, backend="interp")
    assert a[1][0] != b[1][0]
    # ...and check_equivalent accepts both within the float32 tolerance
    outcome = check_equivalent(affine.parse(forward), affine.parse(backward), *args)
    assert outcome, str(outcome)


_ZERO_D = """func.func @f(%a: memref<ELEM>, %b: memref<4xELEM>) {
  %v = affine.load %a[] : memref<ELEM>
  affine.for %i = 0 to 4 {
    %w = affine.load %b[%i] : memref<4xELEM>
    %s = arith.ADD %v, %w : ELEM
    affine.store %s, %b[%i] : memref<4xELEM>
  }
  affine.store %w0, %a[] : memref<ELEM>
  return
}
"""


@pytest.mark.parametrize("element, add", [("f32", "addf"), ("bf16", "addf"), ("i32", "addi")])
@pytest.mark.parametrize("backend", ["interp", "c"])
def test_check_equivalent_takes_0d_memrefs(element: str, add: str, backend: str) -> None:
    """Generated inputs for a 0-d memref are 0-d arrays; a changed 0-d result is seen."""
    text = _ZERO_D.replace("ELEM", element).replace("ADD", add)
    keeps = affine.parse(text.replace("%w0", "%v"))
    changes = affine.parse(
        text.replace(
            "affine.store %w0", "%w0 = affine.load %b[2] : memref<4xELEM>\n  affine.store %w0"
        ).replace("ELEM", element)
    )
    assert random_inputs(resolve_function(keeps, "f"))[0].shape == ()
    assert check_equivalent(keeps, keeps, backend=backend)
    outcome = check_equivalent(keeps, changes, backend=backend)
    assert not outcome and outcome.mismatches[0].arg == 0


_RETURNS_A_BUFFER = """
func.func @f(%x: f32) -> memref<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 4 {
    affine.store %x, %m[%i] : memref<4xf32>
  }
  LAST
  return %m : memref<4xf32>
}
"""


def test_check_equivalent_compares_a_returned_memref_by_its_elements() -> None:
    """A memref result (which the interpreter returns; the C backend returns scalars only)
    is compared element by element: storing the same value again is equivalent, storing
    another is not."""
    plain = affine.parse(_RETURNS_A_BUFFER.replace("LAST", ""))
    again = affine.parse(
        _RETURNS_A_BUFFER.replace("LAST", "affine.store %x, %m[3] : memref<4xf32>")
    )
    other = affine.parse(
        _RETURNS_A_BUFFER.replace(
            "LAST", "%y = arith.addf %x, %x : f32\n  affine.store %y, %m[3] : memref<4xf32>"
        )
    )
    assert check_equivalent(plain, again, 1.5)
    outcome = check_equivalent(plain, other, 1.5)
    assert not outcome and outcome.mismatches[0].arg == -1
