"""Random matrix products and matrix-vector products x ``--affine-auto-schedule``: every
result computes the source's (C backend) and mlir-opt 22 reads it.

A kernel sums ``A * B`` into ``C`` over ``k``: ``C[i][j] += A[.][.] * B[.][.]`` with each
operand indexed either way round (``A[i][k]`` or ``A[k][i]``, ``B[k][j]`` or ``B[j][k]``),
or ``C[i] += A[.][.] * B[k]``; the loops in any order; the sum in memory or, where ``k`` is
innermost, carried in ``iter_args``; added or subtracted; f32 or f64; caches of this
machine or shrunk. Between them they take the auto-scheduler's candidates with transposed
copies, register tiles, crossing tiles and sums vectorised in order."""

from __future__ import annotations

import pytest
from conftest import run_mlir_opt
from hypothesis import given, settings
from hypothesis import strategies as st

import affine
from transforms.auto_scheduler import auto_schedule


@st.composite
def products(draw: st.DrawFn) -> str:
    t = draw(st.sampled_from(["f32", "f64"]))
    n = {x: draw(st.integers(1, 37)) for x in "ijk"}
    vector = draw(st.booleans())  # a matrix-vector product: no j
    loops = draw(st.permutations(["i", "k"] if vector else ["i", "j", "k"]))
    a = draw(st.sampled_from([("i", "k"), ("k", "i")]))
    b = ("k",) if vector else draw(st.sampled_from([("k", "j"), ("j", "k")]))
    c = ("i",) if vector else ("i", "j")
    op = draw(st.sampled_from(["arith.addf", "arith.subf"]))
    carried = loops[-1] == "k" and draw(st.booleans())

    def memref(index: tuple[str, ...]) -> str:
        return f"memref<{'x'.join(str(n[x]) for x in index)}x{t}>"

    def at(name: str, index: tuple[str, ...]) -> str:
        return f"%{name}[{', '.join('%' + x for x in index)}] : {memref(index)}"

    lines = [f"func.func @p(%A: {memref(a)}, %B: {memref(b)}, %C: {memref(c)}) {{"]
    for depth, x in enumerate(loops[:-1] if carried else loops, 1):
        lines.append("  " * depth + f"affine.for %{x} = 0 to {n[x]} {{")
    pad = "  " * (len(loops) + (0 if carried else 1))
    if carried:
        lines += [
            f"{pad}%c0 = affine.load {at('C', c)}",
            f"{pad}%r = affine.for %k = 0 to {n['k']} iter_args(%acc = %c0) -> ({t}) {{",
            f"{pad}  %a = affine.load {at('A', a)}",
            f"{pad}  %b = affine.load {at('B', b)}",
            f"{pad}  %p = arith.mulf %a, %b : {t}",
            f"{pad}  %s = {op} %acc, %p : {t}",
            f"{pad}  affine.yield %s : {t}",
            f"{pad}}}",
            f"{pad}affine.store %r, {at('C', c)}",
        ]
    else:
        lines += [
            f"{pad}%a = affine.load {at('A', a)}",
            f"{pad}%b = affine.load {at('B', b)}",
            f"{pad}%c = affine.load {at('C', c)}",
            f"{pad}%p = arith.mulf %a, %b : {t}",
            f"{pad}%s = {op} %c, %p : {t}",
            f"{pad}affine.store %s, {at('C', c)}",
        ]
    for depth in range(len(loops) - (1 if carried else 0), 0, -1):
        lines.append("  " * depth + "}")
    return "\n".join([*lines, "  return", "}", ""])


CACHES = st.sampled_from([{}, {"l1": 1, "l2": 4, "l3": 16}, {"l1": 4, "l2": 16}])


@settings(max_examples=25, deadline=None)
@given(products(), CACHES, st.sampled_from([256, 512]))
def test_random_products_keep_their_results(text: str, caches: dict, bits: int) -> None:
    module = affine.parse(text, "p.mlir")
    result = auto_schedule(module, vector_bits=bits, **caches)
    outcome = affine.check_equivalent(module, result.module, backend="c")
    assert outcome, (outcome, result.functions[0].chosen, text)


@pytest.mark.mlir
@settings(max_examples=8, deadline=None)
@given(products(), CACHES)
def test_mlir_opt_reads_random_products_scheduled(mlir_opt: str, text: str, caches: dict) -> None:
    result = auto_schedule(affine.parse(text, "p.mlir"), vector_bits=512, **caches)
    checked = run_mlir_opt(mlir_opt, affine.print_module(result.module))
    assert checked.returncode == 0, (checked.stderr, text)
