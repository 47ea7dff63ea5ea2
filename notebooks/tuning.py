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
# # Tuning a kernel by measurement
#
# `transforms.tune` searches from the auto-scheduler's module (its first trial), the
# function's own schedule and each fusion mode: loops to distribute, for each perfect loop
# nest a loop order and tile sizes, then register tiles (rows, vectors, vector width) or
# unroll-and-jam. Every step of a candidate goes through its own legality check before its
# code is generated (an illegal one is never run, and the table says why), the candidate is
# compared with the original's results, and only then timed with the C backend. The search is an optuna
# study: give it `storage="sqlite:///tune.db"` and a second run resumes it; give it
# `executor="dask://HOST:PORT"` and a Dask cluster measures the candidates.

# %%
from pathlib import Path

import affine
import transforms

root = Path.cwd() if (Path.cwd() / "examples").is_dir() else Path.cwd().parent
module = affine.parse((root / "examples" / "matmul.mlir").read_text(), "matmul.mlir")
print(module)

# %% [markdown]
# The kernel takes its sizes from its memrefs, so the search needs them: here 160 × 160
# matrices (by the arguments' names as written).

# %%
result = transforms.tune(
    module, trials=8, seed=0, sizes={"A": (160, 160), "B": (160, 160), "C": (160, 160)}
)
print(f"{result.speedup:.2f}x faster than the original")
print(result.describe())

# %% [markdown]
# Every trial, in the order the search asked for them: the candidate's steps (its base, the
# schedule's edits, the register tile or unroll-and-jam as poly-opt options), whether it was
# legal, and its time.

# %%
result.table()

# %%
result.plot()
