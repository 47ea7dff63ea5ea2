"""A function of many small loop nests: the input of the whole-function dependence scaling
table (``benchmarks/deps.py --scaling``) and of the test that pair work grows linearly.

Nest ``k`` copies array ``k % 3`` into array ``(k + 1) % 3`` (three ``size x size`` f32
memrefs) with offsets ``(k % 2, k // 2 % 2)``: ``B[i][j] = A[i + di][j + dj]``, the bounds
kept inside the arrays. A nest with both offsets 0 writes its whole target, so every read's
last writer is a few nests back: value-based dependences grow linearly with the nests,
memory-based ones quadratically.
"""

from __future__ import annotations

ARRAYS = ("%A", "%B", "%C")


def copy_chain(nests: int, size: int = 200) -> str:
    """MLIR text of ``@copy_chain`` with ``nests`` 2-deep copy nests (see the module doc)."""
    memref = f"memref<{size}x{size}xf32>"
    lines = [
        f"func.func @copy_chain({', '.join(f'{a}: {memref}' for a in ARRAYS)}) {{",
    ]
    for k in range(nests):
        source, target = ARRAYS[k % 3], ARRAYS[(k + 1) % 3]
        di, dj = k % 2, k // 2 % 2
        i, j = f"%i{k}", f"%j{k}"
        row = f"{i} + {di}" if di else i
        column = f"{j} + {dj}" if dj else j
        lines += [
            f"  affine.for {i} = 0 to {size - di} {{",
            f"    affine.for {j} = 0 to {size - dj} {{",
            f"      %v{k} = affine.load {source}[{row}, {column}] : {memref}",
            f"      affine.store %v{k}, {target}[{i}, {j}] : {memref}",
            "    }",
            "  }",
        ]
    lines += ["  return", "}", ""]
    return "\n".join(lines)
