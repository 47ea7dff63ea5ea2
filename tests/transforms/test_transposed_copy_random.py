"""Random nests x --affine-transpose-copy: every result computes the original's (interpreter).

A nest of three loops ``i``, ``j``, ``k`` (bounds constant, triangular or skewed in the
loops around) sums reads of ``X`` at random affine subscripts (each a combination of the
IVs with coefficients in -1..2 plus an offset) into ``Y[i][j]``; sometimes it also writes
``X`` at a random element (the copy must then be refused) or reads it through a subview (the
view's indices are not the array's). ``min-reuse=1`` makes every layout the model prefers
a copy, so footprints of every shape (triangles, strides, offsets) go through a buffer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import affine
import transforms
from affine.exec.equivalence import check_equivalent

N = 6  # every IV stays in 0..N
X = "memref<64x64xf32>"
VIEW = "memref<40x40xf32, strided<[64, 1], offset: 260>>"
IVS = ("i", "j", "k")


@st.composite
def subscript(draw: st.DrawFn) -> str:
    """``c_i * i + c_j * j + c_k * k + offset`` with coefficients in -1..2 and the offset
    keeping it within 0..58 for IVs in 0..N."""
    terms, low = [], 0
    for iv in IVS:
        c = draw(st.sampled_from([0, 0, 0, 1, 1, 2, -1]))
        if c:
            terms.append(f"%{iv} * {c}")
            low += N * max(0, -c)
    offset = draw(st.integers(low, low + 4))
    return " + ".join([*terms, str(offset)])


def _upper(draw: st.DrawFn, outer: list[str]) -> str:
    """A constant, triangular or skewed upper bound over one of the ``outer`` IVs."""
    kind = draw(st.sampled_from(["const", "const", "triangular", "skewed"]))
    if not outer or kind == "const":
        return str(draw(st.integers(1, N)))
    iv = draw(st.sampled_from(outer))
    if kind == "triangular":
        return f"affine_map<(d0) -> (d0 + 1)>(%{iv})"
    return f"affine_map<(d0) -> (-d0 + {N})>(%{iv})"


@st.composite
def nests(draw: st.DrawFn) -> str:
    view = draw(st.sampled_from([False, False, True]))
    source, source_type = ("%v", VIEW) if view else ("%X", X)
    reads = []
    for r in range(draw(st.integers(1, 3))):
        rows, cols = draw(subscript()), draw(subscript())
        if view:  # view indices in 0..29
            rows, cols = f"({rows}) floordiv 2", f"({cols}) floordiv 2"
        reads.append(f"%r{r} = affine.load {source}[{rows}, {cols}] : {source_type}")
    sums, acc = [], "%r0"
    for r in range(1, len(reads)):
        sums.append(f"%s{r} = arith.addf {acc}, %r{r} : f32")
        acc = f"%s{r}"
    body = [
        *reads,
        *sums,
        f"%y = affine.load %Y[%i, %j] : {X}",
        f"%t = arith.addf %y, {acc} : f32",
        f"affine.store %t, %Y[%i, %j] : {X}",
    ]
    if draw(st.integers(0, 3)) == 0:  # the nest writes X too: no copy may be read
        body.append(f"affine.store %t, %X[{draw(subscript())}, {draw(subscript())}] : {X}")
    order = draw(st.permutations(IVS))
    uppers = [_upper(draw, list(order[:depth])) for depth in range(3)]
    text = "\n".join(body)
    for iv, upper in reversed(list(zip(order, uppers, strict=True))):
        text = f"affine.for %{iv} = 0 to {upper} {{\n{text}\n}}"
    subview = f"%v = memref.subview %X[4, 4] [40, 40] [1, 1] : {X} to {VIEW}\n" if view else ""
    return f"func.func @f(%X: {X}, %Y: {X}) {{\n{subview}{text}\nreturn\n}}\n"


@settings(max_examples=200, deadline=None)
@given(nests())
def test_transposed_copies_compute_the_same(text: str) -> None:
    module = affine.parse(text, "random.mlir")
    result = transforms.transpose_copy(module, min_reuse=1)
    again = affine.parse(affine.print_module(result.module), "transposed.mlir")
    verdict = check_equivalent(module, again, backend="interp")
    assert verdict, (text, affine.print_module(result.module), verdict)
