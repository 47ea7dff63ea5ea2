"""Random programs (tests/nestgen.py) x fusion and scalar replacement: every fused or
replaced function computes the original's results (interpreter)."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from nestgen import nests

import affine
import transforms
from poly.deps import AnalysisWarning


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests(), st.sampled_from(["greedy", "producer", "sibling"]), st.booleans())
def test_random_programs_fuse_to_the_same_results(nest, mode: str, maximal: bool) -> None:
    module = affine.parse(nest.text, "random.mlir")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        result = transforms.fuse(module, mode=mode, maximal=maximal)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{nest.text}\n{affine.print_module(result.module)}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_programs_scalar_replace_to_the_same_results(nest) -> None:
    module = affine.parse(nest.text, "random.mlir")
    result = transforms.scalar_replace(module)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{nest.text}\n{affine.print_module(result.module)}"


def _first_array_local(text: str) -> str | None:
    """``text`` with its first memref argument ``%A0`` turned into a local allocation (a
    candidate private buffer), or None when it is the only argument."""
    head, rest = text.split("(", 1)
    params, rest = rest.split(")", 1)
    first, *others = params.split(", ")
    if not others:
        return None
    memref_type = first.split(": ", 1)[1]
    body_start = rest.index("{\n") + 2
    alloc = f"  %A0 = memref.alloc() : {memref_type}\n"
    return f"{head}({', '.join(others)}){rest[:body_start]}{alloc}{rest[body_start:]}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests(), st.booleans())
def test_random_programs_with_a_local_buffer_fuse_to_the_same_results(nest, maximal) -> None:
    """A local buffer may become private, contracted or indexed modulo a count."""
    text = _first_array_local(nest.text)
    assume(text is not None)
    module = affine.parse(text, "random.mlir")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        result = transforms.fuse(module, maximal=maximal)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result.module)}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_random_programs_with_a_local_buffer_scalar_replace_to_the_same_results(nest) -> None:
    """Loads of a local buffer may take a stored value across loops."""
    text = _first_array_local(nest.text)
    assume(text is not None)
    module = affine.parse(text, "random.mlir")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        result = transforms.scalar_replace(module)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result.module)}"
