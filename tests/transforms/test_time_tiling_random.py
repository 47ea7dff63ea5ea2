"""Random stencils x time tiles: every tiling the check accepts computes the original's
results (interpreter), whatever the sweeps read and write.

A kernel runs ``T`` steps of 1-3 sweeps; each sweep writes one of ``A``, ``B``, ``C`` over
its rows (and columns, in 2-d) from up to three neighbours ``X[i + di][j + dj]`` (offsets in
-2..2) of any of them, in place or not: dependences between sweeps and steps then take every
direction and distance, and the skew (up to 4 per sweep) must cover them or the tiling is
refused. Some kernels hold 2 or 3 buffers in each array, every access choosing one by the
step (``X[(t + c) mod m][...]``, ``c`` drawn per access): reads of the buffer a step
writes, of older ones, and writes over buffers still to be read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import affine
from transforms.machine import detect
from transforms.time_tiling import time_tile_function

N = 10
ARRAYS = ("%A", "%B", "%C")


@st.composite
def stencils(draw: st.DrawFn) -> tuple[str, int]:
    rank = draw(st.integers(1, 2))
    buffers = draw(st.sampled_from([0, 0, 2, 3]))
    shape = "x".join([str(buffers)] * bool(buffers) + [str(N + 4)] * rank)
    memref = f"memref<{shape}xf32>"

    def subscript(offsets: tuple[int, ...]) -> str:
        space = [f"%{iv} + {2 + o}" for iv, o in zip("ij", offsets)]
        if not buffers:
            return ", ".join(space)
        return ", ".join([f"(%t + {draw(st.integers(0, buffers - 1))}) mod {buffers}", *space])

    sweeps = []
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(ARRAYS))
        reads = draw(
            st.lists(
                st.tuples(st.sampled_from(ARRAYS), st.tuples(*[st.integers(-2, 2)] * rank)),
                min_size=1,
                max_size=3,
            )
        )
        lines = [
            f"%l{k} = affine.load {src}[{subscript(off)}] : {memref}"
            for k, (src, off) in enumerate(reads)
        ]
        acc = "%l0"
        for k in range(1, len(reads)):
            lines.append(f"%s{k} = arith.addf {acc}, %l{k} : f32")
            acc = f"%s{k}"
        lines.append(f"%h = arith.mulf {acc}, %third : f32")
        lines.append(f"affine.store %h, {target}[{subscript((0,) * rank)}] : {memref}")
        indent = "  " * (2 + rank)
        body = "\n".join(indent + line for line in lines)
        loops = ["i", "j"][:rank]
        opening = "".join(
            f"{'  ' * (2 + k)}affine.for %{iv} = 0 to {N} {{\n" for k, iv in enumerate(loops)
        )
        closing = "".join(f"\n{'  ' * (1 + k)}}}" for k in range(rank, 0, -1))
        sweeps.append(opening + body + closing)
    steps = draw(st.integers(buffers + 1, buffers + 5))  # more steps than buffers
    text = f"""func.func @stencil(%A: {memref}, %B: {memref}, %C: {memref}) {{
  %third = arith.constant 0.333 : f32
  affine.for %t = 0 to {steps} {{
{chr(10).join(sweeps)}
  }}
  return
}}
"""
    return text, rank


@settings(max_examples=60, deadline=None)
@given(stencils(), st.integers(1, 4), st.integers(2, 6), st.booleans())
def test_time_tiles_the_check_accepts_compute_the_same_results(
    kernel: tuple[str, int], time_size: int, space_size: int, both: bool
) -> None:
    text, rank = kernel
    module = affine.parse(text, "stencil.mlir")
    sizes = (space_size,) * (2 if both and rank == 2 else 1)
    result = time_tile_function(module, "stencil", detect(), time_size, sizes)
    if result.schedule is None:
        (reason,) = result.plans
        assert "no skew up to 4 makes time tiles legal" in reason, reason
        return
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result.module)}"


@settings(max_examples=40, deadline=None)
@given(stencils(), st.integers(1, 4), st.integers(2, 6))
def test_fused_sweeps_with_their_loads_forwarded_compute_the_same_results(
    kernel: tuple[str, int], time_size: int, space_size: int
) -> None:
    # the auto-scheduler's fused steps: each statement where it writes, some rows behind,
    # tiled by rows, then the loads of values loaded or stored before in the same
    # iteration forwarded with the arrays apart (they are distinct arguments)
    from transforms.scalar_replacement import scalar_replace_function

    text, _ = kernel
    module = affine.parse(text, "stencil.mlir")
    result = time_tile_function(module, "stencil", detect(), time_size, (space_size,), fuse=True)
    if result.schedule is None:
        (reason,) = result.plans
        assert "no skew up to 4 makes time tiles legal" in reason, reason
        return
    scalar_replace_function(result.module.function("stencil"), arguments_apart=True)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result.module)}"
