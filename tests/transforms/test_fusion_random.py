"""Random programs (tests/nestgen.py) x fusion and scalar replacement: every fused or
replaced function computes the original's results (interpreter)."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, given, settings
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
