"""Pictures (poly/viz.py) checked against the data they show: the markers, arrows, tiles,
paths and arcs are read back from the figure's artists and compared with points, pairs and
orders enumerated here without ISL (brute force over boxes, the dependence oracle's trace,
schedules and tilings evaluated in Python)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable

import islpy as isl
import pytest

pytest.importorskip("matplotlib", reason="the test extra installs matplotlib")

from conftest import ROOT
from dep_oracle import dependent_pairs, trace
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.patches import FancyArrowPatch
from matplotlib.path import Path
from matplotlib.quiver import Quiver

import affine
from affine.ir.core import Module
from poly import viz
from poly.flow import FlowAnalysis
from poly.graph import dependence_graph
from poly.model import Statement
from poly.schedule import Schedule

Point = tuple[int, ...]
Pair = tuple[Point, Point]

STENCIL = (ROOT / "examples" / "stencil.mlir").read_text(encoding="utf-8")

SCAN = """
func.func @scan(%A: memref<16xf32>) {
  affine.for %i = 1 to 12 {
    %v = affine.load %A[%i - 1] : memref<16xf32>
    %w = affine.load %A[%i + 2] : memref<16xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %A[%i] : memref<16xf32>
  }
  return
}
"""

MATMUL = (ROOT / "examples" / "matmul.mlir").read_text(encoding="utf-8")
SIZES = {"M": 4, "N": 4, "K": 4}  # the matrix product's sizes in the pictures

N = 7  # the stencil's %N in the pictures


# -- reading pictures back -------------------------------------------------------------------


def _ints(values) -> tuple[int, ...]:
    rounded = tuple(round(float(v)) for v in values)
    assert all(abs(float(v) - r) < 1e-9 for v, r in zip(values, rounded)), values
    return rounded


def _drawn_points(picture: viz.Picture, prefix: str, rank: int) -> dict[str, list[Point]]:
    """Marker positions of the artists whose gid starts with ``prefix``, by gid."""
    found: dict[str, list[Point]] = {}
    for ax in picture.axes:
        for artist in [*ax.collections, *ax.lines]:
            gid = artist.get_gid() or ""
            if not gid.startswith(prefix):
                continue
            if isinstance(artist, PathCollection):
                rows = [_ints(row)[:rank] for row in artist.get_offsets()]
            else:
                rows = [_ints(row) for row in zip(*artist.get_data_3d())]
            found[gid] = rows
    return found


def _drawn_arrows(ax) -> dict[str, set[Pair]]:
    """The arrows of each labelled quiver (2-d) or arc collection (1-d), by label."""
    found: dict[str, set[Pair]] = defaultdict(set)
    for artist in ax.collections:
        label = artist.get_label()
        if label.startswith("_"):
            continue
        if isinstance(artist, Quiver):
            for x, y, u, v in zip(artist.X, artist.Y, artist.U, artist.V):
                found[label].add((_ints((x, y)), _ints((x + u, y + v))))
        elif isinstance(artist, LineCollection):
            for segment in artist.get_segments():
                found[label].add((_ints(segment[0][:1]), _ints(segment[-1][:1])))
    return dict(found)


# -- the data, enumerated without ISL --------------------------------------------------------


def _parse(text: str) -> Module:
    return affine.parse(text, "kernel.mlir")


def _statement(flow: FlowAnalysis, name: str) -> Statement:
    return next(s for s in flow.model.statements if s.op.name == name)


def _oracle_pairs(
    module: Module, source_op, target_op, symbols=None, distinct: bool = True
) -> set[Pair]:
    """Instance pairs (earlier, later) of the two ops touching one element, one writing
    (``distinct``: on different iterations, which is what an arrow can show)."""
    tr = trace(module, symbols)
    return {
        (a.ivs, b.ivs)
        for a, b in dependent_pairs(tr)
        if a.op is source_op and b.op is target_op and not (distinct and a.ivs == b.ivs)
    }


def _stencil() -> tuple[Module, FlowAnalysis, dict]:
    module = _parse(STENCIL)
    n_value = module.functions()[0].regions[0].blocks[0].arguments[1]
    return module, FlowAnalysis(module), {n_value: N}


def _box_points(test: Callable[..., bool], *ranges: range) -> list[Point]:
    return [p for p in itertools.product(*ranges) if test(*p)]


# -- domains ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "params", "test", "ranges"),
    [
        (
            "[N] -> { [i] : 0 <= i < N and i mod 3 != 1 }",
            {"N": 11},
            lambda i: i % 3 != 1,
            [range(11)],
        ),
        (
            "[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i }",
            {"N": 6},
            lambda i, j: j <= i,
            [range(6), range(6)],
        ),
        (
            "{ [i, j] : 0 <= i < 7 and 0 <= j < 5 and (i + 2 * j) mod 3 = 0 }",
            {},
            lambda i, j: (i + 2 * j) % 3 == 0,
            [range(7), range(5)],
        ),
        (
            "{ [i, j, k] : 0 <= i, j, k < 4 and i + j + k <= 5 }",
            {},
            lambda i, j, k: i + j + k <= 5,
            [range(4)] * 3,
        ),
    ],
)
def test_the_points_drawn_are_the_points_of_the_set(text, params, test, ranges) -> None:
    picture = viz.plot_domain(text, params)
    (drawn,) = _drawn_points(picture, "points", len(ranges)).values()
    expected = _box_points(test, *ranges)
    assert sorted(drawn) == expected
    assert len(set(drawn)) == len(drawn)


def test_a_statement_is_drawn_on_its_loops_with_their_source_names() -> None:
    _, flow, _ = _stencil()
    store = _statement(flow, "affine.store")
    picture = viz.plot_domain(store, {"%N": N})
    (drawn,) = _drawn_points(picture, "points", 2).values()
    assert sorted(drawn) == [(i, j) for i in range(1, N) for j in range(N - 1)]
    (ax,) = picture.axes
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("%i", "%j")
    assert "affine.store %A[%i, %j] @9" in ax.get_title()
    # the same parameter by its ISL name, its SSA name without '%', or its IR value
    for params in ({"N": N}, {store.domain.get_dim_name(isl.dim_type.param, 0): N}):
        again = viz.plot_domain(store, params)
        assert _drawn_points(again, "points", 2) == _drawn_points(picture, "points", 2)


def test_a_picture_needs_every_parameter_and_a_bounded_small_domain() -> None:
    _, flow, _ = _stencil()
    store = _statement(flow, "affine.store")
    with pytest.raises(ValueError, match="fix the parameters %N"):
        viz.plot_domain(store)
    with pytest.raises(ValueError, match="has 9801 points; a picture shows at most 2500"):
        viz.plot_domain(store, {"N": 100})
    with pytest.raises(ValueError, match="infinitely many points"):
        viz.plot_domain("{ [i] : i >= 0 }")
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        viz.plot_domain("{ [i, j, k, l] : 0 <= i, j, k, l < 2 }")


# -- dependences -----------------------------------------------------------------------------


def test_the_arrows_drawn_are_the_dependent_instance_pairs() -> None:
    module, flow, symbols = _stencil()
    store = _statement(flow, "affine.store")
    picture = viz.plot_domain(store, {"N": N}, dependences=flow.memory)
    drawn = _drawn_arrows(picture.axes[0])
    carried = [e for e in flow.memory if e.carried]
    assert len(carried) == 1  # the other edge is loop-independent: no arrow to draw
    edge = carried[0]
    expected = _oracle_pairs(module, edge.source.op, edge.target.op, symbols)
    assert len(expected) == (N - 2) * (N - 2)
    assert drawn == {viz.dependence_label(edge): expected}
    assert drawn.keys() == {"RAW %A @9→@6"}


def test_one_dimensional_dependences_are_arcs_between_the_instances() -> None:
    module = _parse(SCAN)
    flow = FlowAnalysis(module)
    store = _statement(flow, "affine.store")
    picture = viz.plot_domain(store, dependences=flow.memory)
    drawn = _drawn_arrows(picture.axes[0])
    expected = {
        viz.dependence_label(e): {
            ((a,), (b,)) for (a,), (b,) in _oracle_pairs(module, e.source.op, e.target.op)
        }
        for e in flow.memory
        if e.carried
    }
    assert len(expected) == 2 and all(expected.values())
    assert drawn == expected


def test_a_relation_written_by_hand_draws_its_pairs() -> None:
    relation = "[N] -> { [i, j] -> [i + 1, j - 1] : 0 <= i < N - 1 and 1 <= j < N }"
    picture = viz.plot_domain("[N] -> { [i, j] : 0 <= i, j < N }", {"N": 5}, dependences=relation)
    expected = {((i, j), (i + 1, j - 1)) for i in range(4) for j in range(1, 5)}
    assert _drawn_arrows(picture.axes[0]) == {"dependence": expected}
    with pytest.raises(ValueError, match="relates 1- and 1-dimensional instances"):
        viz.plot_domain("{ [i, j] : 0 <= i, j < 3 }", dependences="{ [i] -> [i + 1] }")


def test_distance_vectors_are_the_differences_of_the_dependent_pairs() -> None:
    module, flow, symbols = _stencil()
    picture = viz.plot_distances(flow.memory, {"N": N})
    (ax,) = picture.axes
    arrows, rings = _drawn_arrows(ax), _drawn_points(picture, "distance 0", 2)
    for edge in flow.memory:
        pairs = _oracle_pairs(module, edge.source.op, edge.target.op, symbols, distinct=False)
        distances = {tuple(y - x for x, y in zip(a, b)) for a, b in pairs}
        label = viz.dependence_label(edge)
        assert arrows.get(label, set()) == {((0, 0), d) for d in distances if d != (0, 0)}
        assert rings.get(f"distance 0 {label}") == ([(0, 0)] if (0, 0) in distances else None)
    assert set(arrows) == {"RAW %A @9→@6"} and len(rings) == 1
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("distance along %i", "distance along %j")
    by_hand = viz.plot_distances("{ [i, j] -> [i + 1, b] : 0 <= i, j < 3 and j - 1 <= b <= j + 1 }")
    assert _drawn_arrows(by_hand.axes[0]) == {"dependence": {((0, 0), (1, d)) for d in (-1, 0, 1)}}
    # 3-d: matmul's WAR from the load of C to its store includes distance 0
    matmul = FlowAnalysis(_parse(MATMUL))
    (war,) = [e for e in matmul.memory if e.kind == "WAR"]
    assert list(_drawn_points(viz.plot_distances(war, SIZES), "distance 0", 3).values()) == [
        [(0, 0, 0)]
    ]


# -- tiles -----------------------------------------------------------------------------------


def _groups(drawn: dict[str, list[Point]]) -> list[set[Point]]:
    return [set(points) for _, points in sorted(drawn.items(), key=lambda kv: int(kv[0][5:]))]


def _partition(points: list[Point], tile: Callable[[Point], Point]) -> list[set[Point]]:
    members: dict[Point, set[Point]] = defaultdict(set)
    for p in points:
        members[tile(p)].add(p)
    return [members[t] for t in sorted(members)]


def test_tiles_from_sizes_partition_the_domain_as_the_sizes_say() -> None:
    text = "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }"
    picture = viz.plot_domain(text, {"N": 9}, tiles=[4, 3])
    drawn = _groups(_drawn_points(picture, "tile ", 2))
    domain = [(i, j) for i in range(9) for j in range(i + 1)]
    assert sum(len(g) for g in drawn) == len(domain) and set().union(*drawn) == set(domain)
    assert drawn == _partition(domain, lambda p: (p[0] // 4, p[1] // 3))
    numbers = {t.get_text(): t.xy for t in picture.axes[0].texts}
    assert set(numbers) == {str(k) for k in range(len(drawn))}
    for k, group in enumerate(drawn):  # each number sits at its tile's centre
        centre = tuple(sum(c) / len(group) for c in zip(*group))
        assert numbers[str(k)] == pytest.approx(centre)


def test_tiles_from_a_relation_are_its_preimages() -> None:
    _, flow, _ = _stencil()
    store = _statement(flow, "affine.store")
    skewed = "{ S[i, j] -> [floor(i / 3), floor((i + j) / 3)] }"
    picture = viz.plot_domain(store, {"N": N}, tiles=skewed, dependences=flow.memory)
    drawn = _groups(_drawn_points(picture, "tile ", 2))
    domain = [(i, j) for i in range(1, N) for j in range(N - 1)]
    assert drawn == _partition(domain, lambda p: (p[0] // 3, (p[0] + p[1]) // 3))
    with pytest.raises(ValueError, match=r"gives \(1, 0\) the images"):
        viz.plot_domain(store, {"N": N}, tiles="{ S[i, j] -> [t] : i <= t <= i + 1 }")


def test_tiles_in_one_and_three_dimensions() -> None:
    picture = viz.plot_domain("{ [i] : 0 <= i < 10 }", tiles=[4])
    assert _groups(_drawn_points(picture, "tile ", 1)) == [
        {(i,) for i in range(k, min(k + 4, 10))} for k in (0, 4, 8)
    ]
    cube = viz.plot_domain("{ [i, j, k] : 0 <= i, j, k < 4 }", tiles=[2, 2, 2])
    assert _groups(_drawn_points(cube, "tile ", 3)) == _partition(
        list(itertools.product(range(4), repeat=3)), lambda p: tuple(x // 2 for x in p)
    )


# -- execution order -------------------------------------------------------------------------


def _path(picture: viz.Picture, panel: int = 0) -> list[Point]:
    (line,) = [ln for ln in picture.axes[panel].lines if ln.get_label() == "execution order"]
    return [_ints(row) for row in line.get_xydata()]


def test_the_path_visits_the_points_in_the_schedule_s_order() -> None:
    text = "[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i }"
    picture = viz.plot_domain(text, {"N": 5}, schedule="{ S[i, j] -> [j, -i] }")
    domain = [(i, j) for i in range(5) for j in range(i + 1)]
    assert _path(picture) == sorted(domain, key=lambda p: (p[1], -p[0]))


def test_wavefronts_group_the_points_by_the_leading_schedule_dimensions() -> None:
    picture = viz.plot_domain(
        "{ [i, j] : 0 <= i < 5 and 0 <= j < 4 }",
        schedule="{ [i, j] -> [i + j, j] }",
        order="wavefront",
    )
    drawn = [
        set(g)
        for _, g in sorted(
            _drawn_points(picture, "wavefront", 2).items(), key=lambda kv: int(kv[0].split()[1])
        )
    ]
    domain = list(itertools.product(range(5), range(4)))
    assert drawn == _partition(domain, lambda p: (p[0] + p[1],))


def test_a_schedule_must_give_each_point_one_time() -> None:
    with pytest.raises(ValueError, match=r"gives \(2,\) no image"):
        viz.plot_domain("{ [i] : 0 <= i < 4 }", schedule="{ [i] -> [i] : i < 2 }")
    with pytest.raises(ValueError, match="order is 'path' or 'wavefront'"):
        viz.plot_domain("{ [i] : 0 <= i < 4 }", schedule="{ [i] -> [i] }", order="zigzag")


def test_before_and_after_show_the_pairs_each_schedule_runs_out_of_order() -> None:
    module, flow, symbols = _stencil()
    store = _statement(flow, "affine.store")
    (edge,) = [e for e in flow.memory if e.carried]
    pairs = _oracle_pairs(module, edge.source.op, edge.target.op, symbols)
    orders = {"before": lambda p: p, "after": lambda p: (p[1], p[0])}
    picture = viz.plot_schedules(
        store, "{ S[i, j] -> [i, j] }", "{ S[i, j] -> [j, i] }", {"N": N}, dependences=edge
    )
    label = viz.dependence_label(edge)
    for panel, (name, time) in enumerate(orders.items()):
        drawn = _drawn_arrows(picture.axes[panel])
        kept = {(a, b) for a, b in pairs if time(a) < time(b)}
        violated = pairs - kept
        assert drawn.get(label, set()) == kept, name
        assert drawn.get(f"{label}: violated", set()) == violated, name
        domain = [(i, j) for i in range(1, N) for j in range(N - 1)]
        assert _path(picture, panel) == sorted(domain, key=time)
    assert not _drawn_arrows(picture.axes[0]).get(f"{label}: violated")
    assert len(_drawn_arrows(picture.axes[1])[f"{label}: violated"]) == len(pairs)


# -- the dependence graph --------------------------------------------------------------------


@pytest.mark.parametrize("level", ["statement", "access", "nest"])
def test_the_graph_has_one_arc_per_edge_between_the_right_nodes(level: str) -> None:
    module = _parse(MATMUL)
    flow = FlowAnalysis(module)
    graph = dependence_graph(flow, level)
    picture = viz.plot_graph(flow, level)
    (ax,) = picture.axes
    picture.canvas.draw()
    # node labels are right of the node column, edge labels left of it
    nodes = {
        t.get_text().split(":")[0]: t.get_position()[1] for t in ax.texts if t.get_position()[0] > 0
    }
    assert set(nodes) == set(graph.nodes)
    arcs = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    drawn = sorted(p.get_gid().split(":")[0] for p in arcs)
    assert drawn == sorted(f"{u} -> {v}" for u, v in graph.edges())
    for patch in arcs:
        source, target = patch.get_gid().split(":")[0].split(" -> ")
        path = patch.get_path()  # the curve, then the arrow head (from a second MOVETO)
        head = list(path.codes).index(Path.MOVETO, 1)
        start, end = path.vertices[0], path.vertices[head - 1]
        # the arc starts next to its source node and ends next to its target
        assert min(nodes, key=lambda n: abs(nodes[n] - start[1])) == source
        assert min(nodes, key=lambda n: abs(nodes[n] - end[1])) == target
    carried = {f"{u} -> {v}": bool(d["carried_by"]) for u, v, d in graph.edges(data=True)}
    for patch in arcs:
        assert (patch.get_linestyle() == "-") == carried[patch.get_gid().split(":")[0]]
    labels = {t.get_text() for t in ax.texts}
    assert "WAW (0, 0, ≥1) carried by %k" in labels or level == "nest"


def test_the_graph_of_a_stencil_names_statements_and_loops_as_the_source_does() -> None:
    _, flow, _ = _stencil()
    picture = viz.plot_graph(flow)
    texts = {t.get_text() for t in picture.axes[0].texts}
    assert {
        "S0: affine.load %A[%i - 1, %j + 1] @6",
        "S1: affine.load %A[%i, %j] @7",
        "S2: affine.store %A[%i, %j] @9",
        "RAW (1, -1) carried by %i",
        "WAR (0, 0) loop-independent",
    } <= texts
    # a networkx graph without the analysis: the nodes keep the graph's own attributes
    bare = viz.plot_graph(dependence_graph(flow, "statement"))
    assert "S2: affine.store @9" in {t.get_text() for t in bare.axes[0].texts}


# -- footprints ------------------------------------------------------------------------------


def test_footprints_are_the_elements_the_accesses_touch() -> None:
    module = _parse(MATMUL)
    flow = FlowAnalysis(module)
    tile = "{ [i, j, k] : 0 <= i < 2 and 1 <= j < 3 and 0 <= k < 2 }"
    picture = viz.plot_footprint(flow.model.accesses, SIZES, instances=tile)
    instances = list(itertools.product(range(2), range(1, 3), range(2)))
    subscripts = {  # per memref panel: each access's element at (i, j, k)
        "%A": [lambda i, j, k: (i, k)],
        "%B": [lambda i, j, k: (k, j)],
        "%C": [lambda i, j, k: (i, j), lambda i, j, k: (i, j)],
    }
    assert [ax.get_title() for ax in picture.axes] == list(subscripts)
    for ax, element_of in zip(picture.axes, subscripts.values()):
        # markers are moved within their cell (less than half a cell) to show overlaps
        drawn = [
            {(round(y), round(x)) for x, y in _matrix(ax, c)}
            for c in ax.collections
            if (c.get_gid() or "").startswith("footprint")
        ]
        assert drawn == [{f(*p) for p in instances} for f in element_of]


def _matrix(ax, collection) -> list[tuple[float, float]]:
    assert ax.yaxis_inverted()  # row 0 at the top, as a matrix is written
    return [tuple(row) for row in collection.get_offsets()]


# -- pictures in notebooks, and the cost of import -------------------------------------------


def test_a_picture_displays_as_png_in_ipython() -> None:
    formatters = pytest.importorskip("IPython.core.formatters", reason="needs IPython")
    picture = viz.plot_domain("{ [i, j] : 0 <= i, j < 3 }")
    png = formatters.PNGFormatter()(picture)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000


def test_import_poly_does_not_load_matplotlib() -> None:
    probe = "import sys, poly; print('matplotlib' in sys.modules); poly.viz; print('matplotlib' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["False", "True"]


# -- a Schedule's picture ----------------------------------------------------------------------


def test_a_schedule_s_picture_shows_its_order_and_the_pairs_it_breaks() -> None:
    """The stencil interchanged: the path follows (j, i), every oracle pair of the store
    and the load that reads it runs backwards (red), and the verdict's witness is ringed."""
    module, flow, symbols = _stencil()
    (edge,) = [e for e in flow.memory if e.carried]
    pairs = _oracle_pairs(module, edge.source.op, edge.target.op, symbols)
    interchanged = Schedule.of(module.functions()[0]).interchange("%i", "%j")
    picture = viz.plot_schedule(interchanged, {"%N": N})
    (label,) = _drawn_arrows(picture.axes[0])
    assert label.endswith(": violated") and label.startswith("RAW %A @9→@6")
    assert _drawn_arrows(picture.axes[0])[label] == pairs
    domain = [(i, j) for i in range(1, N) for j in range(N - 1)]
    assert _path(picture) == sorted(domain, key=lambda p: (p[1], p[0]))
    violation = interchanged.check().violation
    assert violation is not None
    ringed = _drawn_points(picture, "witness", 2)["witness"]
    assert ringed == [violation.source, violation.target]
    assert (violation.source, violation.target) in pairs
    assert [ax.get_xlabel() for ax in picture.axes] == ["%i"]


def test_a_legal_schedule_s_picture_has_no_red_arrow_and_fixes_small_parameters() -> None:
    module, flow, _ = _stencil()
    (edge,) = [e for e in flow.memory if e.carried]
    skewed = Schedule.of(module.functions()[0]).skew("%j", {"%i": 1}).tile(["%i", "%j"], [3, 3])
    assert viz.small_params(skewed.statements[0].domain) == {"N": 8}  # 7 x 7 points
    picture = viz.plot_schedule(skewed)
    drawn = _drawn_arrows(picture.axes[0])
    assert list(drawn) == ["RAW %A @9→@6"]
    assert drawn["RAW %A @9→@6"] == _oracle_pairs(
        module,
        edge.source.op,
        edge.target.op,
        {module.functions()[0].regions[0].blocks[0].arguments[1]: 8},
    )
    assert "legal" in picture.axes[0].get_title() and "N = 8" in picture.axes[0].get_title()
    assert not _drawn_points(picture, "witness", 2)
