"""Random in-place stencils x chains side by side and unroll-and-jam over varying bounds:
every result computes the original's (interpreter).

A kernel updates ``A[i][j]`` in place from neighbours ``A[i + di][j + dj]`` (offsets in
-2..2) inside ``i``, ``j`` loops whose bounds may be skewed or triangular in ``i``
(``j`` from ``a i + b`` to ``c i + d``), optionally inside a time loop: the dependences
between rows then take every direction, and the skew and the jam must respect them or
refuse. Imperfect kernels put a second chain loop and element copies between rows beside
the first, in the loop that is jammed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import affine
from transforms.errors import TransformError
from transforms.unroll_jam import check_unroll_and_jam, interleave_chains, unroll_and_jam_loop

N = 12
MEMREF = f"memref<{N + 4}x{3 * N}xf32>"


def _inner_loop(draw: st.DrawFn, name: str, chain: bool = False) -> str:
    """A ``j`` loop (bounds skewed or triangular in ``i``) updating ``A[i][j]`` in place
    from neighbours at random offsets (with ``chain``, one of them ``A[i][j - 1]``, and
    mostly in the same row, so that more jams are legal)."""
    rows = st.sampled_from([0, 0, 0, -1, 1, -2, 2]) if chain else st.integers(-2, 2)
    offsets = draw(st.lists(st.tuples(rows, st.integers(-2, 2)), min_size=1, max_size=4))
    offsets = [(0, -1), *offsets[:3]] if chain else offsets
    a, c = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    b, d = draw(st.integers(2, 4)), draw(st.integers(5, 7))
    loads = [
        f"  %{name}l{k} = affine.load %A[%i + {di} + 2, %{name} + {dj} + 2] : {MEMREF}"
        for k, (di, dj) in enumerate(offsets)
    ]
    sums, acc = [], f"%{name}l0"
    for k in range(1, len(offsets)):
        sums.append(f"  %{name}s{k} = arith.addf {acc}, %{name}l{k} : f32")
        acc = f"%{name}s{k}"
    lower = f"affine_map<(d0) -> (d0 * {a} + {b})>(%i)"
    upper = f"affine_map<(d0) -> (d0 * {c} + {d + N})>(%i)"
    body = "\n".join(
        [
            *loads,
            *sums,
            f"  %{name}h = arith.mulf {acc}, %half : f32",
            f"  affine.store %{name}h, %A[%i + 2, %{name} + 2] : {MEMREF}",
        ]
    )
    return f"affine.for %{name} = {lower} to {upper} {{\n{body}\n}}"


def _element_copy(draw: st.DrawFn, name: str) -> str:
    """Ops beside the chain loops: an element of a nearby row copied into row ``i``."""
    di = draw(st.sampled_from([0, 0, -1, 1]))
    source, target = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    return (
        f"%{name} = affine.load %A[%i + {di} + 2, {source}] : {MEMREF}\n"
        f"affine.store %{name}, %A[%i + 2, {target}] : {MEMREF}"
    )


def _indented(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in text.splitlines())


@st.composite
def stencils(draw: st.DrawFn, imperfect: bool = False) -> str:
    """A kernel of one ``i`` loop around a chain loop ``j`` (with ``imperfect``, also a
    second chain loop and element copies before, between and after them, each maybe
    absent), optionally inside a time loop."""
    parts = [_inner_loop(draw, "j", chain=imperfect)]
    if imperfect:
        parts = [
            *([_element_copy(draw, "before")] if draw(st.booleans()) else []),
            parts[0],
            *([_element_copy(draw, "between")] if draw(st.booleans()) else []),
            *([_inner_loop(draw, "k", chain=True)] if draw(st.booleans()) else []),
            *([_element_copy(draw, "after")] if draw(st.booleans()) else []),
        ]
    body = f"affine.for %i = 0 to {N} {{\n" + _indented("\n".join(parts), 2) + "\n}"
    if draw(st.booleans()):
        body = "affine.for %t = 0 to 3 {\n" + _indented(body, 2) + "\n}"
    return f"""func.func @stencil(%A: {MEMREF}) {{
  %half = arith.constant 5.000000e-01 : f32
{_indented(body, 2)}
  return
}}
"""


@settings(max_examples=40, deadline=None)
@given(stencils(), st.sampled_from([2, 3, 4, 8]))
def test_jams_over_varying_bounds_compute_the_same_results(text: str, factor: int) -> None:
    module = affine.parse(text, "stencil.mlir")
    result = module.clone()
    i_loop = [op for op in result.function("stencil").walk() if op.name == "affine.for"][-2]
    if check_unroll_and_jam(i_loop, factor):
        try:
            unroll_and_jam_loop(i_loop, factor)
        except TransformError:
            return
        verdict = affine.check_equivalent(module, result)
        assert verdict, f"{verdict}\n{text}\n{affine.print_module(result)}"


def _check_chains(text: str) -> None:
    module = affine.parse(text, "stencil.mlir")
    result, _ = interleave_chains(module, "stencil")
    verdict = affine.check_equivalent(module, result)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result)}"


@settings(max_examples=40, deadline=None)
@given(stencils())
def test_chains_side_by_side_compute_the_same_results(text: str) -> None:
    _check_chains(text)


@settings(max_examples=60, deadline=None)
@given(stencils(imperfect=True))
def test_chains_side_by_side_in_imperfect_nests_compute_the_same_results(text: str) -> None:
    # the jammed row loop holds element copies between rows and up to two chain loops
    _check_chains(text)
