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
# # Fusion and data movement
#
# `transforms.fuse` (`--affine-loop-fusion`) fuses producer-consumer and sibling nests where
# the whole function's fused schedule is legal (checked against the exact dependences, not
# assumed), with exact slices and private buffers contracted to what one iteration needs;
# every candidate pair gets a remark saying what was done or why not.
# `transforms.scalar_replace` (`--affine-scalrep`) then forwards stored values to loads.
# Every rewrite below is run against the original on the same inputs.

# %%
from pathlib import Path

import affine
import transforms

root = Path.cwd() if (Path.cwd() / "tests").is_dir() else Path.cwd().parent
corpus = root / "tests" / "corpus" / "fusion"
chain = affine.parse((corpus / "elementwise_chain.mlir").read_text(), "elementwise_chain.mlir")
chain

# %% [markdown]
# The producer writes `%B`, which nothing else reads: after fusion it is a one-element
# buffer, and the two loops are one.

# %%
fused = transforms.fuse(chain)
print(*fused.remarks, sep="\n")
fused

# %%
replaced = transforms.scalar_replace(fused.module)
print(*replaced.remarks, sep="\n")
print(replaced.module)
print(affine.check_equivalent(chain, replaced.module, backend="c"))

# %% [markdown]
# Fusion is refused where the fused order would reverse a dependence, and the remark names
# it with its source positions (doitgen's two inner nests share `%sum`):

# %%
doitgen = affine.parse(
    (root / "tests" / "corpus" / "kernels" / "doitgen.mlir").read_text(), "doitgen.mlir"
)
print(*transforms.fuse(doitgen).remarks, sep="\n")

# %% [markdown]
# Sibling fusion: two nests that read the same matrix (bicg's two products) could become one,
# so that the matrix is read once. The cost model declines: the fused innermost loop would
# join `s[j] += r[i] * A[i][j]` (stride-1, it vectorizes) to `q[i] += ...` (the same element
# written in every iteration), and the remark gives the numbers. `maximal` fuses anyway.

# %%
bicg = affine.parse((corpus / "bicg_split.mlir").read_text(), "bicg_split.mlir")
print(*transforms.fuse(bicg, mode="sibling").remarks, sep="\n")
sibling = transforms.fuse(bicg, mode="sibling", maximal=True)
print(*sibling.remarks, sep="\n")
print(affine.check_equivalent(bicg, sibling.module, backend="c"))

# %% [markdown]
# ## Data movement
#
# `transforms.copy_data` (`--affine-data-copy-generate`) copies the exact footprint a loop
# reads into a buffer in a fast memory space (and what it writes back out), as point-wise
# copies or DMAs; the remark gives the copied volume beside the bounding box's.
# `transforms.pipeline_transfers` (`--affine-pipeline-data-transfer`) double-buffers the
# DMAs of a loop so that the transfer for the next iteration overlaps this one's compute.

# %%
datamove = root / "tests" / "corpus" / "datamove"
copy_kernel = affine.parse((datamove / "copy.mlir").read_text(), "copy.mlir")
copied = transforms.copy_data(copy_kernel, generate_dma=True)
print(*copied.remarks, sep="\n")
entry = {"f_entry": "loop_nest_1d", "g_entry": "loop_nest_1d"}
print(affine.check_equivalent(copy_kernel, copied.module, backend="c", **entry))

# %%
pipeline_kernel = affine.parse((datamove / "pipeline.mlir").read_text(), "pipeline.mlir")
pipelined = transforms.pipeline_transfers(pipeline_kernel)
print(*pipelined.remarks, sep="\n")
print(pipelined.module.function("loop_nest_dma"))
entry = {"f_entry": "loop_nest_dma", "g_entry": "loop_nest_dma"}
print(affine.check_equivalent(pipeline_kernel, pipelined.module, backend="c", **entry))
