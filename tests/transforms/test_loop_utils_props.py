"""Random loop nests (tests/nestgen.py): every always-legal rewrite of a random loop keeps
the nest's results, and a refused rewrite leaves the IR untouched."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from nestgen import nests
from transform_helpers import assert_equivalent

import affine
from affine.syntax.printer import print_module
from transforms.errors import TransformError
from transforms.loop_utils import is_loop, loops, normalize_loop, permute_loops
from transforms.parallelization import to_parallel
from transforms.skewing import skew_band
from transforms.tiling import tile_perfect_band
from transforms.unroll_jam import unroll_and_jam_loop
from transforms.unrolling import unroll_full, unroll_loop, unroll_up_to

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
        unroll_loop(loop, factor)
    elif rewrite == "unroll-cleanup":
        unroll_loop(loop, factor, cleanup_unroll=True)
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
        skew_band([*enclosing, loop], [factor - 3 + k for k in range(len(enclosing))])
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


@st.composite
def counting_bands(draw: st.DrawFn) -> str:
    """A perfect band of 2-3 loops whose bounds are max/min of affine functions of the outer
    loops (coefficients of either sign, floordiv), clamped to [0, 12), counting its visits
    to each point: the counts do not depend on the order of the iterations, so any rewrite
    that runs every iteration exactly once keeps the result."""
    depth = draw(st.integers(2, 3))
    lines = []
    for d in range(depth):
        dims = ", ".join(f"d{k}" for k in range(d))
        operands = ", ".join(f"%i{k}" for k in range(d))

        def expr(offset: int, d: int = d) -> str:
            terms = [f"d{k} * {draw(st.integers(-1, 2))}" for k in range(d)]
            text = " + ".join([*terms, str(offset)])
            return f"({text}) floordiv 2" if draw(st.booleans()) else text

        lower, upper = "0", "12"
        if d and draw(st.booleans()):
            lower = f"max affine_map<({dims}) -> (0, {expr(draw(st.integers(-3, 3)))})>({operands})"
        if d and draw(st.booleans()):
            upper = f"min affine_map<({dims}) -> (12, {expr(draw(st.integers(2, 9)))})>({operands})"
        step = draw(st.sampled_from([1, 1, 2]))
        lines.append(f"affine.for %i{d} = {lower} to {upper} step {step} {{")
    index = ", ".join(f"%i{k}" for k in range(depth))
    shape = "x".join(["12"] * depth)
    body = [
        f"%c = affine.load %C[{index}] : memref<{shape}xi32>",
        "%n = arith.addi %c, %one : i32",
        f"affine.store %n, %C[{index}] : memref<{shape}xi32>",
    ]
    text = "\n".join([*lines, *body, *["}"] * depth])
    return (
        f"func.func @band(%C: memref<{shape}xi32>) {{\n%one = arith.constant 1 : i32\n"
        f"{text}\nreturn\n}}\n"
    )


def _reorder(rewrite: str, band: list, data) -> None:
    """Apply a rewrite that reorders (tiling, permutation, unroll_loop-and-jam, skewing,
    parallelization) to the loops of ``band``, with parameters drawn from ``data``."""
    n = len(band)
    if rewrite == "tile":
        sizes = data.draw(st.lists(st.integers(1, 5), min_size=n, max_size=n), label="sizes")
        tile_perfect_band(band, sizes, data.draw(st.booleans(), label="separate"))
    elif rewrite == "permute":
        permute_loops(band, data.draw(st.permutations(range(n)), label="permutation"))
    elif rewrite == "parallelize":
        to_parallel(band[data.draw(st.integers(0, n - 1), label="loop")])
    elif rewrite == "unroll-and-jam":
        loop = band[data.draw(st.integers(0, n - 1), label="loop")]
        unroll_and_jam_loop(loop, data.draw(st.integers(2, 4), label="factor"))
    else:
        factors = data.draw(st.lists(st.integers(-2, 2), min_size=n - 1, max_size=n - 1))
        skew_band(band, factors)


@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    counting_bands(),
    st.sampled_from(["tile", "permute", "unroll-and-jam", "skew", "parallelize"]),
    st.data(),
)
def test_reordering_rewrites_run_every_iteration_of_random_bands_once(
    text: str, rewrite: str, data
) -> None:
    module = affine.parse(text)
    clone = module.clone()
    before = print_module(clone)
    try:
        _reorder(rewrite, loops(clone), data)
    except TransformError as e:
        event(f"{rewrite} refused: {e.message}")
        assert print_module(clone) == before
        return
    event(f"{rewrite} applied")
    assert_equivalent(module, clone, "band")
