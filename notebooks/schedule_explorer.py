# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: -all
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The schedule explorer
#
# `transforms.Explorer` edits a function's schedule step by step. After every step it says
# whether the new order keeps every dependence (checked exactly; an illegal step names the
# dependence it breaks, with its source positions), draws the iteration space in the new
# order (broken dependences in red), shows the generated MLIR and, on request, times the
# original and the new code with the C backend. The same object drives the controls at the
# end of this notebook.

# %%
from pathlib import Path

import numpy as np

import affine
from transforms import Explorer

stencil = affine.parse((Path("..") / "examples" / "stencil.mlir").read_text(), "stencil.mlir")
N = 1500
A = np.random.default_rng(0).random((N, N), dtype=np.float32)
ex = Explorer(stencil, params={"%N": 8}, inputs=[A, N])
ex.schedule

# %% [markdown]
# ## An illegal step: interchange
#
# Each iteration `(i, j)` reads `A[i - 1][j + 1]`, written by iteration `(i - 1, j + 1)`.
# Running `j` outside `i` reads it before it is written: the verdict names that dependence
# and a pair of iterations that shows it; the picture draws every broken pair in red.

# %%
ex.interchange("%i", "%j")
ex.verdict

# %%
ex.picture()

# %% [markdown]
# ## A legal step: skew, then tile
#
# Skewing `j` by `i` turns the distance `(1, -1)` into `(1, 0)`; rectangular tiles of the
# skewed loops are then legal. The generated code is checked against the original on
# random inputs.

# %%
ex.undo()
ex.skew("%j", {"%i": 1}).tile(["%i", "%j"], [64, 64])
ex.verdict

# %%
print(ex.mlir())

# %%
small = [np.random.default_rng(1).random((20, 20), dtype=np.float32), 20]
print(affine.check_equivalent(stencil, ex.new_module(), *small, backend="c"))

# %% [markdown]
# Legal is not the same as faster: the times below are what this machine measures for the
# original and the skewed tiles (best of three runs each, same inputs, results compared).

# %%
measured = ex.measure()
print(measured)

# %% [markdown]
# ## A step that pays: loop order on a column sweep
#
# This sweep runs down the columns of a row-major array (`j` outside `i`), so every access
# jumps a whole row. Interchanging the loops is legal (the dependence is carried by `i`
# and stays so) and makes the inner loop run along the rows.

# %%
sweep = affine.parse(
    """
func.func @sweep(%A: memref<1500x1500xf32>) {
  affine.for %j = 0 to 1500 {
    affine.for %i = 1 to 1500 {
      %u = affine.load %A[%i - 1, %j] : memref<1500x1500xf32>
      %v = affine.load %A[%i, %j] : memref<1500x1500xf32>
      %s = arith.addf %u, %v : f32
      affine.store %s, %A[%i, %j] : memref<1500x1500xf32>
    }
  }
  return
}
""",
    "sweep.mlir",
)
rows = Explorer(sweep, params={})
rows.interchange("%j", "%i")
print(rows.verdict)
sweep_measured = rows.measure()
print(sweep_measured)

# %%
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(5, 2.4))
names = ["stencil: original", "stencil: skewed tiles", "sweep: original", "sweep: interchanged"]
times = [
    measured.original.min,
    measured.new.min,
    sweep_measured.original.min,
    sweep_measured.new.min,
]
ax.barh(names, [t * 1e3 for t in times], color=["#999999", "#1f77b4", "#999999", "#2ca02c"])
ax.set_xlabel("best of 3 runs (ms, C backend)")
ax.invert_yaxis()
fig.tight_layout()

# %% [markdown]
# ## The controls
#
# Pick the nest, the loop order, skew factors, tile sizes (0: untiled), parallel marks, or
# type a whole schedule in ISL's notation; each change redraws the verdict, the picture and
# the code. "measure" times the original and the new code.

# %%
explorer = Explorer(stencil, params={"%N": 8}, inputs=[A, N])
explorer.widget()
