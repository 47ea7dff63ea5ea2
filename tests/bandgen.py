"""Random perfect loop bands with stencil-like dependences, as MLIR text.

``bands()`` draws a function ``@band`` whose body is one perfect nest of 2 or 3
``affine.for`` loops: constant bounds, or bounds that depend on the outer IVs (triangular
and trapezoidal bands, with ``max``/``min``), steps 1 or 2; its innermost body holds one to
three statements ``A[f(ivs)] = A[g(ivs)] * c + B[h(ivs)]`` whose subscripts are IVs plus
small offsets, sometimes swapped or negated, so that the band has every kind of
dependence (distances such as (1, -1), (0, 1), (1, 1), anti-dependences, reductions onto
one element). Subscripts are shifted so that every access stays inside the arrays. Every
band verifies and is accepted by mlir-opt 22; the interesting transformations (tiling,
permutation, unroll-and-jam, skewing) are legal for some and illegal for others.
"""

from __future__ import annotations

from hypothesis import strategies as st

from affine import Module, Operation

SIZE = 7  # trip count bound of every loop
PAD = 4  # subscripts are shifted by PAD; arrays hold SIZE + 2 * PAD elements per dimension


@st.composite
def bands(draw: st.DrawFn) -> str:
    depth = draw(st.integers(2, 3))
    ivs = [f"%i{k}" for k in range(depth)]
    lines = []
    indent = "  "
    for k, iv in enumerate(ivs):
        step = draw(st.sampled_from([1, 1, 1, 2]))
        shape = draw(st.sampled_from(["const", "const", "tri", "trap"])) if k else "const"
        if shape == "const":
            lb, ub = str(draw(st.integers(0, 2))), str(draw(st.integers(4, SIZE)))
        else:
            outer = draw(st.sampled_from(ivs[:k]))
            if shape == "tri":
                if draw(st.booleans()):
                    lb, ub = "0", f"affine_map<(d0) -> (d0 + 1)>({outer})"
                else:
                    lb, ub = f"affine_map<(d0) -> (d0)>({outer})", str(SIZE)
            else:
                lb = f"max affine_map<(d0) -> (0, d0 - 2)>({outer})"
                ub = f"min affine_map<(d0) -> ({SIZE}, d0 + 3)>({outer})"
        step_text = f" step {step}" if step != 1 else ""
        lines.append(f"{indent}affine.for {iv} = {lb} to {ub}{step_text} {{")
        indent += "  "
    extent = SIZE + 2 * PAD
    two_d = depth >= 2
    memref_a = f"memref<{extent}x{extent}xf32>" if two_d else f"memref<{extent}xf32>"
    memref_b = f"memref<{extent}xf32>"

    def subscript(iv_choices: list[str]) -> str:
        iv = draw(st.sampled_from(iv_choices))
        sign = draw(st.sampled_from(["", "", "", "-"]))
        offset = draw(st.integers(-2, 2))
        base = PAD + offset + (SIZE if sign else 0)
        return f"{sign}{iv} + {base}" if sign == "" else f"-{iv} + {base - 1}"

    # Mostly stencils (dimension k of A indexed by IV k plus a small offset: uniform
    # distances), sometimes arbitrary subscripts.
    structured = draw(st.sampled_from([True, True, False]))
    rows, cols = ivs[0], ivs[-1] if depth == 2 else ivs[draw(st.integers(1, 2))]

    def stencil(offsets: tuple[int, int]) -> str:
        return f"{rows} + {PAD + offsets[0]}, {cols} + {PAD + offsets[1]}"

    small = st.tuples(st.integers(-1, 1), st.integers(-1, 1))
    count = draw(st.integers(1, 2)) if structured else draw(st.integers(1, 3))
    for n in range(count):
        if structured:
            index_a = stencil(draw(small))
            read_a = stencil(draw(small))
        else:
            index_a = ", ".join(subscript(ivs) for _ in range(2))
            read_a = ", ".join(subscript(ivs) for _ in range(2))
        read_b = subscript(ivs)
        c = draw(st.sampled_from(["0.5", "1.5", "-1.0"]))
        lines += [
            f"{indent}%a{n} = affine.load %A[{read_a}] : {memref_a}",
            f"{indent}%b{n} = affine.load %B[{read_b}] : {memref_b}",
            f"{indent}%c{n} = arith.constant {c} : f32",
            f"{indent}%m{n} = arith.mulf %a{n}, %c{n} : f32",
            f"{indent}%s{n} = arith.addf %m{n}, %b{n} : f32",
            f"{indent}affine.store %s{n}, %A[{index_a}] : {memref_a}",
        ]
        if draw(st.booleans()):
            lines.append(f"{indent}affine.store %a{n}, %B[{subscript(ivs)}] : {memref_b}")
    for _ in range(depth):
        indent = indent[:-2]
        lines.append(f"{indent}}}")
    body = "\n".join(lines)
    return f"func.func @band(%A: {memref_a}, %B: {memref_b}) {{\n{body}\n  return\n}}\n"


def perfect_bands(module: Module) -> list[list[Operation]]:
    """Every chain of affine.for loops where each one's body is the next loop only."""
    bands = []
    for op in module.operation.walk():
        if op.name != "affine.for" or len(op.regions[0].blocks[0].arguments) != 1:
            continue
        band = [op]
        while True:
            body = [x for x in band[-1].regions[0].blocks[0].operations if x.name != "affine.yield"]
            if len(body) == 1 and body[0].name == "affine.for":
                band.append(body[0])
            else:
                break
        if len(band) >= 2:
            bands.append(band)
    return bands
