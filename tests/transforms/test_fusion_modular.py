"""Private buffers indexed modulo a count: a value that lives across fused iterations
keeps a cell of a buffer that wraps around, never one another live value shares.

For a producer ``B[i] = f(A[i])`` and a consumer reading ``B[i + o]`` for the offsets
``o`` in ``O``, fusion runs producer instance ``e`` in the first consumer iteration that
reads it, ``e - max O``; its last read is in iteration ``e - min O``. In iteration ``t``
the live elements are ``t + min O .. t + max O``: ``max O - min O + 1`` consecutive
elements, so that is the smallest modulus (one fewer and the write of ``t + max O`` lands
on ``t + min O`` before its last read). One offset: one element per iteration, the
dimension is dropped instead."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import affine
import transforms


def _chain(offsets: list[int], n: int = 24) -> str:
    low, high = max(0, -min(offsets)), min(n, n - max(offsets))  # reads stay inside B
    names = [f"%r{k}" for k in range(len(offsets))]
    loads = "\n".join(
        f"    {name} = affine.load %B[%j + {o}] : memref<{n}xf32>"
        for name, o in zip(names, offsets)
    )
    sums, acc = [], names[0]
    for k, name in enumerate(names[1:]):
        sums.append(f"    %s{k} = arith.addf {acc}, {name} : f32")
        acc = f"%s{k}"
    body = "\n".join([loads, *sums])
    return f"""func.func @chain(%A: memref<{n}xf32>, %C: memref<{n}xf32>) {{
  %B = memref.alloc() : memref<{n}xf32>
  affine.for %i = 0 to {n} {{
    %a = affine.load %A[%i] : memref<{n}xf32>
    %m = arith.mulf %a, %a : f32
    affine.store %m, %B[%i] : memref<{n}xf32>
  }}
  affine.for %j = {low} to {high} {{
{body}
    affine.store {acc}, %C[%j] : memref<{n}xf32>
  }}
  memref.dealloc %B : memref<{n}xf32>
  return
}}
"""


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4, unique=True))
def test_the_modulus_is_the_live_span_and_the_results_equal(offsets: list[int]) -> None:
    module = affine.parse(_chain(offsets), "chain.mlir")
    result = transforms.fuse(module, maximal=True)
    text = affine.print_module(result.module)
    span = max(offsets) - min(offsets) + 1
    expected = "memref<1xf32>" if span == 1 else f"memref<{span}xf32>"
    assert f"memref.alloc() : {expected}" in text, "\n".join(result.remarks)
    assert (f"mod {span}]" in text) == (span > 1)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}"


def test_a_value_read_in_every_iteration_keeps_its_buffer_whole() -> None:
    # B[0] is read in every consumer iteration: whatever the modulus, a later element
    # shares its cell while it is still live
    text = _chain([0, 1]).replace("affine.load %B[%j + 0]", "affine.load %B[0]")
    module = affine.parse(text, "first.mlir")
    result = transforms.fuse(module, maximal=True)
    assert "memref<24xf32>" in affine.print_module(result.module)
    assert any("no dimension of %B can wrap around" in r for r in result.remarks), result.remarks
    assert affine.check_equivalent(module, result.module)


def test_rows_of_a_2d_chain_wrap_and_the_row_loops_stay_whole() -> None:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "corpus" / "fusion" / "row_stencil_chain.mlir"
    module = affine.parse(path.read_text(), str(path))
    result = transforms.fuse(module)  # the cost model: at depth 2 a guard splits the j loop
    text = affine.print_module(result.module)
    assert "memref.alloc() : memref<3x64xf32>" in text and "mod 3, %" in text
    assert any("at depth 1" in r and "index 0 modulo 3" in r for r in result.remarks)
    assert affine.check_equivalent(module, result.module, backend="c")
