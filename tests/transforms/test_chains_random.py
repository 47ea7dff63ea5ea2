"""Random in-place stencils x chains side by side and unroll-and-jam over varying bounds:
every result computes the original's (interpreter).

A kernel updates ``A[i][j]`` in place from neighbours ``A[i + di][j + dj]`` (offsets in
-2..2) inside ``i``, ``j`` loops whose bounds may be skewed or triangular in ``i``
(``j`` from ``a i + b`` to ``c i + d``), optionally inside a time loop: the dependences
between rows then take every direction, and the skew and the jam must respect them or
refuse."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import affine
from transforms.errors import TransformError
from transforms.unroll_jam import check_unroll_and_jam, interleave_chains, unroll_and_jam_loop

N = 12


@st.composite
def stencils(draw: st.DrawFn) -> str:
    offsets = draw(
        st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=4)
    )
    a, c = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    b, d = draw(st.integers(2, 4)), draw(st.integers(5, 7))
    time = draw(st.booleans())
    loads = "\n".join(
        f"      %l{k} = affine.load %A[%i + {di} + 2, %j + {dj} + 2] : memref<{N + 4}x{3 * N}xf32>"
        for k, (di, dj) in enumerate(offsets)
    )
    sums, acc = [], "%l0"
    for k in range(1, len(offsets)):
        sums.append(f"      %s{k} = arith.addf {acc}, %l{k} : f32")
        acc = f"%s{k}"
    lower = f"affine_map<(d0) -> (d0 * {a} + {b})>(%i)"
    upper = f"affine_map<(d0) -> (d0 * {c} + {d + N})>(%i)"
    body = f"""    affine.for %i = 0 to {N} {{
      affine.for %j = {lower} to {upper} {{
{loads}
{chr(10).join(sums)}
        %h = arith.mulf {acc}, %half : f32
        affine.store %h, %A[%i + 2, %j + 2] : memref<{N + 4}x{3 * N}xf32>
      }}
    }}"""
    body = body.replace("\n      %", "\n        %")
    if time:
        body = "  affine.for %t = 0 to 3 {\n" + body.replace("\n", "\n  ") + "\n  }"
    else:
        body = "  " + body.lstrip()
    return f"""func.func @stencil(%A: memref<{N + 4}x{3 * N}xf32>) {{
  %half = arith.constant 5.000000e-01 : f32
{body}
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


@settings(max_examples=40, deadline=None)
@given(stencils())
def test_chains_side_by_side_compute_the_same_results(text: str) -> None:
    module = affine.parse(text, "stencil.mlir")
    result, _ = interleave_chains(module, "stencil")
    verdict = affine.check_equivalent(module, result)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result)}"
