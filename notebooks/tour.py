# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # A tour of `affine`: reading, inspecting and printing MLIR
#
# The `affine` package reads MLIR text — modern MLIR as `mlir-opt` 22 prints it, and the
# 2018-19 syntax of the original affine specification — into a small, pure-Python IR. This
# notebook reads a kernel, walks its loops, looks at the affine maps and memref layouts inside
# it, builds new values, and prints the result back as MLIR.

# %%
import affine
from affine import ops

kernel = """
func.func @matmul(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 64 {
        %a = affine.load %A[%i, %k] : memref<64x64xf32>
        %b = affine.load %B[%k, %j] : memref<64x64xf32>
        %c = affine.load %C[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<64x64xf32>
      }
    }
  }
  return
}
"""
module = affine.parse(kernel, "matmul.mlir")
print(module)

# %% [markdown]
# ## Walking the IR
#
# A module is a tree of operations, regions and blocks. `walk()` visits every operation in
# pre-order; the typed views in `affine.ops` give names to the parts of the affine ops.

# %%
loops = [ops.ForOp(op) for op in module.operation.walk() if op.name == "affine.for"]
for loop in loops:
    print(
        loop.induction_var.type,
        loop.lower_bound_map,
        loop.upper_bound_map,
        "step",
        loop.step,
        "trips",
        loop.constant_trip_count(),
    )

# %%
from collections import Counter

Counter(op.name for op in module.operation.walk())

# %%
for op in module.operation.walk():
    if op.name == "affine.load":
        load = ops.LoadOp(op)
        print(load.memref.type, load.map, [str(v.type) for v in load.map_operands])

# %% [markdown]
# ## Affine expressions and maps are values
#
# Expressions, maps, integer sets, types and attributes are immutable and interned: building
# the same expression twice gives the same object, simplified the way MLIR simplifies it.

# %%
d0, d1 = affine.dims(2)
s0 = affine.symbol(0)
e = d0 * 4 + d1
print(e, "|", e // 4, "|", (e * 8) % 4, "|", (d0 + d0 * 2 + s0).ceildiv(2))
print((d0 + 1) * 2 is (d0 + 1) * 2, e.evaluate(dims=[3, 5]))

# %%
tiled = affine.parse_affine_map(
    "(d0, d1) -> (d0 floordiv 32, d1 floordiv 32, d0 mod 32, d1 mod 32)"
)
print(tiled, "| dims:", tiled.num_dims, "results:", tiled.num_results)
print(tiled.compose(affine.parse_affine_map("(d0, d1) -> (d1, d0)")))

# %% [markdown]
# ## The 2018-19 syntax
#
# The seed specification's syntax (`for`/`if` instructions, `affine_apply`, maps with `size`,
# memref types with a *composition* of layout maps and a named memory space) is recognised
# without a flag and printed as modern MLIR that means the same.

# %%
seed = """
#tile = (i, j) -> (i floordiv 4, j floordiv 4, i mod 4, j mod 4)
#swap = (i0, i1, i2, i3) -> (i1, i0, i2, i3)

func @fill(%N: index) {
  %A = alloc() : memref<16x16xf32, #tile, #swap, shared>
  %c = constant 1.0 : f32
  for %i = 0 to 16 {
    for %j = 0 to 16 {
      store %c, %A[%i, %j] : memref<16x16xf32, #tile, #swap, shared>
    }
  }
  return
}
"""
old = affine.parse(seed, "fill.mlir")
print(old)
alloc = next(op for op in old.operation.walk() if op.name == "memref.alloc")
layout = alloc.results[0].type
print("composed layout:", layout.layout_map(), "| memory space:", layout.memory_space)

# %% [markdown]
# ## Errors point at the source
#
# Bad input raises a `DiagnosticError` whose text is `file:line:col: error: ...`, the source
# line and a caret — the same thing `poly-opt` prints before it exits with status 1.

# %%
try:
    affine.parse(
        """
func.func @f(%A: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i, %i] : memref<8xf32>
  }
  return
}""",
        "bad.mlir",
    )
except affine.DiagnosticError as error:
    print(error)

# %% [markdown]
# ## Printing
#
# `print_module` prints the pretty form by default (with `#map` aliases and `mlir-opt`'s SSA
# names), or the generic form on request.

# %%
print(affine.print_module(module, generic=True)[:600])
