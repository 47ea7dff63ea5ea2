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
# `transforms.tune` searches the schedules around a function's own: for each perfect loop
# nest a loop order and tile sizes. Every candidate is checked against the exact
# dependences before its code is generated (an illegal one is never run), compared with the
# original's results, and only then timed with the C backend. The search is an optuna
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
print(result.schedule.history_text())

# %% [markdown]
# Every trial, in the order the search asked for them: the candidate's edits, whether it was
# legal, and its time.

# %%
result.table()

# %%
result.plot()
