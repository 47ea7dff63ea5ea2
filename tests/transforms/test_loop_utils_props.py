"""Random loop nests (tests/nestgen.py): every always-legal rewrite of a random loop keeps
the nest's results, and a refused rewrite leaves the IR untouched."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from nestgen import nests
from transform_helpers import assert_equivalent

import affine
from affine.printer import print_module
from transforms.errors import TransformError
from transforms.loop_utils import is_loop, loops, normalize_loop, skew
from transforms.tiling import tile_perfect_band
from transforms.unroll import unroll, unroll_full, unroll_up_to

MAX_EXAMPLES = 150
REWRITES = (
    "unroll",
    "unroll-cleanup",
    "unroll-up-to",
    "unroll-full",
    "normalize",
    "normalize-composed",
    "skew",
    "strip-mine",
)


def _apply(rewrite: str, loop, factor: int) -> None:
    if rewrite == "unroll":
        unroll(loop, factor)
    elif rewrite == "unroll-cleanup":
        unroll(loop, factor, cleanup_unroll=True)
    elif rewrite == "unroll-up-to":
        unroll_up_to(loop, factor)
    elif rewrite == "unroll-full":
        unroll_full(loop)
    elif rewrite == "normalize":
        normalize_loop(loop, promote_single_iteration=factor % 2 == 0)
    elif rewrite == "normalize-composed":
        normalize_loop(loop, compose=True)
    elif rewrite == "skew":
        enclosing = [op for op in loop.ancestors() if is_loop(op)][::-1]
        skew([*enclosing, loop], [factor - 3 + k for k in range(len(enclosing))])
    else:
        tile_perfect_band([loop], [factor], separate=factor % 2 == 1)


@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests(), st.data())
def test_always_legal_rewrites_of_random_nests_keep_results(nest, data) -> None:
    module = affine.parse(nest.text)
    candidates = loops(module)
    if not candidates:
        return
    index = data.draw(st.integers(0, len(candidates) - 1), label="loop")
    rewrite = data.draw(st.sampled_from(REWRITES), label="rewrite")
    factor = data.draw(st.integers(1, 6), label="factor")
    clone = module.clone()
    before = print_module(clone)
    try:
        _apply(rewrite, loops(clone)[index], factor)
    except TransformError:
        event(f"{rewrite}: refused")
        assert print_module(clone) == before
        return
    event(f"{rewrite}: applied")
    assert_equivalent(module, clone, nest.name)
