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
# # Pictures of loop nests
#
# `poly.viz` draws what the polyhedral model knows about a loop nest: the integer points of
# an iteration domain, the dependences between them, tiles, the order a schedule runs them
# in, the dependence graph and the elements each access touches. Every picture is drawn
# from the exact sets, enumerated once the parameters are fixed: a marker is a point of the
# domain, an arrow a pair of dependent iterations.

# %%
from pathlib import Path

import ipywidgets as widgets

import affine
from poly import FlowAnalysis, Schedule, viz

examples = Path("..") / "examples"
stencil = affine.parse((examples / "stencil.mlir").read_text(), "stencil.mlir")
flow = FlowAnalysis(stencil)
store = next(s for s in flow.model.statements if s.op.name == "affine.store")
params = {"%N": 8}

# %% [markdown]
# ## A stencil's iteration domain and its dependences
#
# Each iteration `(i, j)` reads `A[i - 1, j + 1]`, which iteration `(i - 1, j + 1)` wrote:
# a dependence of distance `(1, -1)`, one arrow per pair of iterations.

# %%
viz.plot_domain(store, params, dependences=flow.memory)

# %%
viz.plot_distances(flow.memory, params)

# %% [markdown]
# ## Tiles
#
# Rectangular tiles are not legal here: arrows go from a tile to the one below it and back.
# Skewing `j` by `i` first makes tiles parallelograms in the original coordinates, and every
# dependence then goes from a tile to a later one.

# %%
viz.plot_domain(store, params, tiles=[3, 3], dependences=flow.memory)

# %%
skewed_tiles = "{ S[i, j] -> [floor(i / 3), floor((i + j) / 3)] }"
viz.plot_domain(store, params, tiles=skewed_tiles, dependences=flow.memory)

# %% [markdown]
# ## Execution order
#
# The original order against the interchanged one: interchange runs every dependence
# backwards (the red arrows). A wavefront schedule `2i + j` keeps them all.

# %%
viz.plot_schedules(
    store, "{ S[i, j] -> [i, j] }", "{ S[i, j] -> [j, i] }", params, dependences=flow.memory
)

# %%
viz.plot_domain(
    store,
    params,
    schedule="{ S[i, j] -> [2 * i + j, i] }",
    order="wavefront",
    dependences=flow.memory,
)

# %% [markdown]
# A whole-function schedule (`poly.Schedule`) draws itself the same way: its order, the
# pairs it breaks in red and the pair its verdict names ringed. Interchanged, the stencil
# runs every dependence backwards.

# %%
schedule = Schedule.of(stencil.functions()[0])
viz.plot_schedule(schedule.interchange("%i", "%j"), params)

# %% [markdown]
# ## The dependence graph
#
# Statements top to bottom in program order; each dependence an arc with its kind, its
# distance and the loops that carry it.

# %%
viz.plot_graph(flow)

# %% [markdown]
# ## A matrix product: three dimensions, tiles and footprints

# %%
matmul = affine.parse((examples / "matmul.mlir").read_text(), "matmul.mlir")
products = FlowAnalysis(matmul)
sizes = {"%M": 4, "%N": 4, "%K": 4}
accumulate = next(s for s in products.model.statements if s.op.name == "affine.store")
flows_into_loads = [e for e in products.value if e.kind == "RAW"]
viz.plot_domain(accumulate, sizes, dependences=flows_into_loads, tiles=[2, 2, 2])

# %%
viz.plot_graph(products)

# %% [markdown]
# The elements one 2 x 2 x 4 tile of iterations touches in each matrix:

# %%
one_tile = "{ [i, j, k] : 0 <= i < 2 and 0 <= j < 2 and 0 <= k < 4 }"
viz.plot_footprint(products.model.accesses, sizes, instances=one_tile)

# %% [markdown]
# ## Tile sizes, live
#
# Move the sliders: the running kernel redraws the stencil's tiles.

# %%
rows = widgets.IntSlider(value=3, min=1, max=7, description="tile %i")
columns = widgets.IntSlider(value=3, min=1, max=7, description="tile %j")
tiles_picture = widgets.Image(format="png", layout=widgets.Layout(align_self="flex-start"))


def redraw(_change: object = None) -> None:
    sizes = [rows.value, columns.value]
    picture = viz.plot_domain(store, params, tiles=sizes, dependences=flow.memory)
    tiles_picture.value = picture.png()


rows.observe(redraw, "value")
columns.observe(redraw, "value")
redraw()
widgets.VBox([widgets.HBox([rows, columns]), tiles_picture])
