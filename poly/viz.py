"""Pictures of the polyhedral model: iteration domains, dependences, tiles, execution order,
the dependence graph and access footprints (matplotlib).

Invariant: a picture shows exactly its data, enumerated by ISL once every parameter is
fixed (``params``: by ISL name, by the SSA name as written, ``%N``, or by the IR value): one
marker per integer point of a domain, one arrow per pair of a dependence relation between
two different points, one colour and number per tile (the points with the same tile
coordinates), points visited in the lexicographic order of their schedule times. Nothing
is sampled or clipped: a picture of more than ``max_points`` points or arrows is refused.

2-d pictures put the first dimension across and the second up; a memref's index space is
drawn as a matrix (index 0 down the rows, index 1 across). Axis labels are the source's
loop and memref names where the picture comes from :mod:`poly.model`.

Every function returns a :class:`Picture`, a matplotlib ``Figure`` made without pyplot (no
global state, no GUI backend) that Jupyter displays as PNG. ``import poly`` does not load
this module or matplotlib; ``poly.viz`` does.
"""

from __future__ import annotations

import io
import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import islpy as isl
import networkx as nx
import numpy as np
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection
from matplotlib.colors import BoundaryNorm
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Rectangle
from matplotlib.ticker import MaxNLocator, MultipleLocator
from mpl_toolkits.mplot3d import Axes3D

from affine.dialects.affine_dialect import LoadOp, StoreOp
from affine.ir.core import Operation, Value
from affine.ir.types import DYNAMIC, MemRefType
from affine.math.expr import print_expr
from affine.math.integer_set import IntegerSet
from poly.convert import set_to_isl
from poly.flow import Edge, FlowAnalysis
from poly.graph import dependence_graph
from poly.model import WRITE, Access, Scope, Statement
from poly.schedule import Schedule
from poly.schedule_program import Dependence
from poly.sets import Bindable, bind_params, count_points, points
from poly.space import param_names, read_user_text

Point = tuple[int, ...]
Params = Mapping[Any, int]  # keys: ISL parameter names, SSA names ("%N") or IR values
DomainLike = Statement | isl.Set | isl.BasicSet | IntegerSet | str
RelationLike = isl.Map | isl.BasicMap | isl.UnionMap | str
DependenceLike = Edge | RelationLike

MAX_POINTS = 2500
KIND_COLORS = {"RAW": "#1f77b4", "WAR": "#ff7f0e", "WAW": "#2ca02c", "RAR": "#9467bd"}
OTHER_COLOR = "#444444"
VIOLATED_COLOR = "#d62728"  # a dependence the schedule of the picture does not respect
POINT_COLOR = "#606060"
PATH_COLOR = "#8c8c8c"
# Tiles are coloured by sum(t_k * 2**k) mod (2**rank + 1): neighbouring tiles (diagonals
# included) never share a colour. Nine colours: tab10 without the red of violated dependences.
TILE_COLORS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


class Picture(Figure):
    """A matplotlib figure that Jupyter displays as PNG; saved, it keeps the legends and
    labels outside its axes (``bbox_inches="tight"`` unless told otherwise)."""

    def savefig(self, fname: Any, **kwargs: Any) -> None:
        kwargs.setdefault("bbox_inches", "tight")
        super().savefig(fname, **kwargs)

    def png(self) -> bytes:
        """The picture as PNG (what Jupyter shows, and an ``ipywidgets.Image`` takes)."""
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()

    def _repr_png_(self) -> bytes:
        return self.png()


# -- the data -----------------------------------------------------------------------------------


@dataclass
class _Domain:
    """The integer points of one domain (parameters fixed), with what names them."""

    name: str | None  # the ISL tuple name, None for an unnamed set
    isl_set: isl.Set  # without parameters
    points: list[Point]
    labels: list[str]
    scope: Scope | None
    title: str

    @property
    def rank(self) -> int:
        return len(self.labels)


@dataclass
class _Arrows:
    """The instance pairs of one dependence, source first (pairs within a point left out)."""

    label: str
    color: str
    pairs: list[tuple[Point, Point]]


def _read_set(source: isl.Set | isl.BasicSet | IntegerSet | str) -> isl.Set:
    if isinstance(source, str):
        return read_user_text(isl.Set, source)
    if isinstance(source, IntegerSet):
        return set_to_isl(source)
    if isinstance(source, isl.BasicSet):
        return isl.Set.from_basic_set(source)
    return source


def _read_maps(source: RelationLike) -> list[isl.Map]:
    if isinstance(source, str):
        source = read_user_text(isl.UnionMap, source)
    if isinstance(source, isl.BasicMap):
        return [isl.Map.from_basic_map(source)]
    if isinstance(source, isl.Map):
        return [source]
    maps = source.get_map_list()
    return [maps.get_at(k) for k in range(maps.n_map())]


def _scope_values(scope: Scope | None) -> dict[str, Value]:
    """ISL parameter name -> the IR value it stands for."""
    if scope is None:
        return {}
    return {name: key for key, name in scope.param_names.items() if isinstance(key, Value)}


def _bound(obj: Bindable, params: Params, scope: Scope | None) -> Bindable:
    """``obj`` with every parameter fixed from ``params`` (ValueError naming those missing)."""
    values: dict[str, int] = {}
    missing: list[str] = []
    ir_values = _scope_values(scope)
    for name in param_names(obj):
        ir_value = ir_values.get(name)
        keys: list[object] = [name, "%" + name]
        if ir_value is not None:
            keys += [ir_value, ir_value.name, (ir_value.name or "").removeprefix("%")]
        found = next((params[k] for k in keys if k is not None and k in params), None)
        if found is None:
            missing.append(ir_value.name if ir_value is not None and ir_value.name else name)
        else:
            values[name] = found
    if missing:
        raise ValueError(
            f"fix the parameters {', '.join(missing)} to draw a picture "
            f"(params={{{missing[0]!r}: ...}})"
        )
    return bind_params(obj, values)


def _enumerate(isl_set: isl.Set, limit: int, what: str) -> list[Point]:
    count = count_points(isl_set)
    if count > limit:
        raise ValueError(
            f"{what} has {count} points; a picture shows at most {limit} "
            "(fix smaller parameter values, or raise max_points)"
        )
    return list(points(isl_set))


def _pairs(relation: isl.Map, limit: int, what: str) -> list[tuple[Point, Point]]:
    n_in = relation.dim(isl.dim_type.in_)
    return [(p[:n_in], p[n_in:]) for p in _enumerate(relation.wrap(), limit, what)]


def _source_name(value: Value, fallback: str) -> str:
    return value.name or fallback


def _loop_labels(statement: Statement) -> list[str]:
    """The source names of the statement's induction variables (ISL names where unnamed)."""
    names = {
        statement.scope.iv_name(argument): argument.name
        for loop in statement.loops
        for argument in loop.regions[0].blocks[0].arguments
    }
    return [names.get(iv) or iv for iv in statement.iv_names]


def _op_text(op: Operation) -> str:
    """``affine.load %A[%i - 1, %j] @5``: the op and what it touches, in source names."""
    return f"{op.name} {_touched_text(op)}"


def _touched_text(op: Operation) -> str:
    """``%A[%i - 1, %j] @5`` for affine accesses (source names; the memref operands
    otherwise), with the op's line where it has a location."""
    where = f" @{op.loc.line}" if op.loc is not None else ""
    if op.name not in ("affine.load", "affine.store"):
        memrefs = [v.name or "?" for v in op.operands if isinstance(v.type, MemRefType)]
        return " ".join(memrefs) + where
    view = LoadOp(op) if op.name == "affine.load" else StoreOp(op)
    m, memref, operands = view.map, view.memref, view.map_operands

    def name(position: int, is_symbol: bool) -> str:
        value = operands[m.num_dims + position if is_symbol else position]
        return value.name or ("s" if is_symbol else "d") + str(position)

    subscripts = ", ".join(print_expr(r, name) for r in m.results)
    return f"{_source_name(memref, '?')}[{subscripts}]{where}"


def _domain(source: DomainLike, params: Params, limit: int) -> _Domain:
    if isinstance(source, Statement):
        isl_set, scope = source.domain, source.scope
        labels = _loop_labels(source)
        title = f"{source.name}: {_op_text(source.op)}"
    else:
        isl_set, scope = _read_set(source), None
        labels = [
            isl_set.get_dim_name(isl.dim_type.set, k) or f"d{k}"
            for k in range(isl_set.dim(isl.dim_type.set))
        ]
        title = ""
    if not 1 <= len(labels) <= 3:
        raise ValueError(f"a picture shows 1 to 3 dimensions; {isl_set} has {len(labels)}")
    bound = _bound(isl_set, params, scope)
    name = bound.get_tuple_name() if bound.has_tuple_name() else None
    found = _enumerate(bound, limit, "the domain")
    return _Domain(name, bound, found, labels, scope, title or (name or "domain"))


def _select(source: RelationLike, domain: _Domain, what: str) -> isl.Map:
    """The relation of ``source`` on the domain's instances: the one named after the domain,
    else the only one with as many inputs as the domain has dimensions."""
    maps = [m for m in _read_maps(source) if m.dim(isl.dim_type.in_) == domain.rank]
    named = [
        m
        for m in maps
        if domain.name and m.has_tuple_name(isl.dim_type.in_)
        if m.get_tuple_name(isl.dim_type.in_) == domain.name
    ]
    chosen = named or maps
    if len(chosen) != 1:
        raise ValueError(
            f"the {what} {source} has {len(chosen) or 'no'} relations on "
            f"{domain.rank}-dimensional instances of {domain.name or 'the domain'}; "
            "give exactly one"
        )
    return chosen[0]


def _on_domain(relation: isl.Map, domain: _Domain) -> isl.Map:
    """``relation`` (parameters fixed) restricted to the domain's points, its input tuple
    renamed to the domain's (written by hand, it may say ``S`` for ``S2``)."""
    if domain.name:
        relation = relation.set_tuple_name(isl.dim_type.in_, domain.name)
    else:
        relation = relation.reset_tuple_id(isl.dim_type.in_)
    return relation.intersect_domain(domain.isl_set)


def _images(
    source: RelationLike, domain: _Domain, params: Params, what: str, limit: int
) -> dict[Point, Point]:
    """The image of every point of the domain under a function (a schedule, a tiling);
    ValueError when a point has none or several."""
    relation = _bound(_select(source, domain, what), params, domain.scope)
    images: dict[Point, list[Point]] = defaultdict(list)
    for point, image in _pairs(_on_domain(relation, domain), limit, f"the {what}"):
        images[point].append(image)
    for point in domain.points:
        if len(images[point]) != 1:
            found = "no image" if not images[point] else f"the images {images[point]}"
            raise ValueError(f"the {what} gives {point} {found}; it needs exactly one")
    return {point: images[point][0] for point in domain.points}


def _edge_relation(edge: Edge) -> isl.Map:
    """The edge's instance pairs on its common loops."""
    if edge.relation is None:
        raise ValueError(f"{edge!r} is unknown (the analysis gave up): it has no pairs to draw")
    n = len(edge.common)
    relation = edge.relation.project_out(
        isl.dim_type.in_, n, edge.source.statement.depth - n
    ).project_out(isl.dim_type.out, n, edge.target.statement.depth - n)
    return relation


def dependence_label(edge: Edge) -> str:
    """``RAW %A @9→@6``: how pictures name an analysis edge (kind, memref, source lines)."""
    memref = _source_name(edge.source.memref, edge.source.memref_name)
    lines = [a.op.loc.line if a.op.loc is not None else "?" for a in (edge.source, edge.target)]
    return f"{edge.kind} {memref} @{lines[0]}→@{lines[1]}"


def _as_list(items: Any, single: tuple[type, ...]) -> list[Any]:
    if items is None:
        return []
    return [items] if isinstance(items, single) else list(items)


def _dependence_arrows(
    dependences: DependenceLike | Iterable[DependenceLike],
    rank: int,
    params: Params,
    scope: Scope | None,
    limit: int,
) -> list[_Arrows]:
    groups = []
    single = (Edge, isl.Map, isl.BasicMap, isl.UnionMap, str)
    for dependence in _as_list(dependences, single):
        where: Scope | None
        if isinstance(dependence, Edge):
            relations = [_edge_relation(dependence)]
            labels = [dependence_label(dependence)]
            color = KIND_COLORS.get(dependence.kind, OTHER_COLOR)
            where = dependence.source.statement.scope
        else:
            relations = _read_maps(dependence)
            labels = [_relation_label(m) for m in relations]
            color, where = OTHER_COLOR, scope
        for relation, label in zip(relations, labels):
            arity = (relation.dim(isl.dim_type.in_), relation.dim(isl.dim_type.out))
            if arity != (rank, rank):
                raise ValueError(
                    f"the dependence {label} relates {arity[0]}- and {arity[1]}-dimensional "
                    f"instances; the picture has {rank} dimensions"
                )
            pairs = _pairs(_bound(relation, params, where), limit, f"the dependence {label}")
            groups.append(_Arrows(label, color, [(a, b) for a, b in pairs if a != b]))
    return groups


def _relation_label(relation: isl.Map) -> str:
    ends = [
        relation.get_tuple_name(kind) if relation.has_tuple_name(kind) else ""
        for kind in (isl.dim_type.in_, isl.dim_type.out)
    ]
    return f"{ends[0]} → {ends[1]}" if any(ends) else "dependence"


def _tiles(
    tiles: Sequence[int] | RelationLike, domain: _Domain, params: Params, limit: int
) -> dict[Point, Point]:
    """Tile coordinates of every point: from sizes, tiles start at the least coordinate of
    the domain in each dimension; from a relation, its image of the point."""
    if isinstance(tiles, (str, isl.Map, isl.BasicMap, isl.UnionMap)):
        return _images(tiles, domain, params, "tiling", limit)
    sizes = list(tiles)
    if len(sizes) != domain.rank or any(size < 1 for size in sizes):
        raise ValueError(f"give {domain.rank} positive tile sizes, not {sizes}")
    lows = [min(p[k] for p in domain.points) for k in range(domain.rank)]
    return {
        p: tuple((x - low) // size for x, low, size in zip(p, lows, sizes)) for p in domain.points
    }


# -- drawing -----------------------------------------------------------------------------------


def _picture(width: float, height: float) -> Picture:
    return Picture(figsize=(width, height), layout="constrained")


def _size(extent: int) -> float:
    """Inches for ``extent`` integer positions along an axis."""
    return min(9.0, max(3.0, 0.42 * extent + 1.6))


@dataclass
class _Canvas:
    """One axes showing ``rank`` integer dimensions: a line (``y`` = 0), a plane or a box.

    ``matrix`` draws a 2-d space as a matrix: dimension 0 down the rows, dimension 1
    across."""

    figure: Figure
    position: tuple[int, int, int]  # rows, columns, index (add_subplot)
    rank: int
    labels: Sequence[str]
    matrix: bool = False
    ax: Axes = field(init=False)

    def __post_init__(self) -> None:
        if self.rank == 3:
            box = cast(Axes3D, self.figure.add_subplot(*self.position, projection="3d"))
            box.set_zlabel(self.labels[2])
            self.ax = box
        else:
            self.ax = self.figure.add_subplot(*self.position)
        if self.rank == 1:
            self.ax.set_xlabel(self.labels[0])
            self.ax.get_yaxis().set_visible(False)
            for side in ("left", "right", "top"):
                self.ax.spines[side].set_visible(False)
        else:
            across, up = (1, 0) if self.matrix else (0, 1)
            self.ax.set_xlabel(self.labels[across])
            self.ax.set_ylabel(self.labels[up])
        if self.rank == 2:
            self.ax.set_aspect("equal")
            if self.matrix:
                self.ax.invert_yaxis()
                self.ax.xaxis.set_label_position("top")
                self.ax.xaxis.tick_top()
        for axis in (self.ax.xaxis, self.ax.yaxis):
            axis.set_major_locator(MaxNLocator(integer=True))

    def columns(self, pts: Sequence[Sequence[float]]) -> list[list[float]]:
        """Plot coordinates: x, y (and z) lists."""
        if self.rank == 1:
            return [[p[0] for p in pts], [0.0] * len(pts)]
        if self.rank == 2 and self.matrix:
            return [[p[1] for p in pts], [p[0] for p in pts]]
        return [[p[k] for p in pts] for k in range(self.rank)]

    def points(
        self,
        pts: Sequence[Sequence[float]],
        color: Any,
        gid: str,
        label: str | None = None,
        marker: str = "o",
        size: float = 36,
        hollow: bool = False,
    ) -> None:
        """One marker per point: a scatter collection (a line of markers in 3-d) named
        ``gid``."""
        columns = self.columns(pts)
        if isinstance(self.ax, Axes3D):
            self.ax.plot(
                *columns,
                linestyle="none",
                marker=marker,
                markersize=size**0.5,
                color=color,
                markerfacecolor="none" if hollow else color,
                label=label,
                gid=gid,
            )
            return
        fill = {"facecolors": "none", "edgecolors": color} if hollow else {"color": color}
        x, y = columns
        self.ax.scatter(x, y, s=size, marker=marker, label=label, zorder=2, gid=gid, **fill)

    def arrows(
        self, pairs: Sequence[tuple[Point, Point]], color: str, label: str | None, width: float
    ) -> None:
        """One arrow per pair, from the first point to the second (arcs above a line in 1-d)."""
        if not pairs:
            return
        if self.rank == 1:
            self.arcs(pairs, color, label, width, above=True)
            return
        starts = self.columns([a for a, _ in pairs])
        ends = self.columns([b for _, b in pairs])
        vectors = [[e - s for s, e in zip(*axis)] for axis in zip(starts, ends)]
        if isinstance(self.ax, Axes3D):
            self.ax.quiver(
                *starts,
                *vectors,
                color=color,
                label=label,
                linewidths=width,
                arrow_length_ratio=0.25,
            )
            return
        self.vectors(starts, vectors, color, label, 0.004 * width, head=4)

    def vectors(
        self,
        tails: Sequence[Sequence[float]],
        vectors: Sequence[Sequence[float]],
        color: str,
        label: str | None,
        width: float,
        head: float,
    ) -> None:
        """2-d arrows from ``tails`` (x and y columns) along ``vectors`` at their exact data
        length; ``width`` in fractions of the axes, ``head`` in shaft widths."""
        self.ax.quiver(
            *tails,
            *vectors,
            color=color,
            angles="xy",
            scale_units="xy",
            scale=1,
            width=width,
            headwidth=head,
            headlength=head + 1,
            zorder=3,
            label=label,
        )

    def arcs(
        self,
        pairs: Sequence[tuple[Point, Point]],
        color: str,
        label: str | None,
        width: float,
        above: bool,
    ) -> None:
        """1-d arrows as half-parabolas between points of the line, heads at the targets."""
        t = np.linspace(0.0, 1.0, 25)
        sign = 1.0 if above else -1.0
        curves = []
        for (a,), (b,) in pairs:
            xs = a + (b - a) * t
            ys = sign * (0.3 * abs(b - a) + 0.2) * 4 * t * (1 - t)
            curves.append(np.column_stack([xs, ys]))
        self.ax.add_collection(LineCollection(curves, colors=color, linewidths=width, label=label))
        tails = np.array([curve[-3] for curve in curves])
        heads = np.array([curve[-1] for curve in curves])
        self.vectors(tails.T, (heads - tails).T, color, None, 0.003 * width, head=5)

    def path(self, pts: Sequence[Point]) -> None:
        """The points joined in the given order (arcs below the line in 1-d)."""
        if len(pts) < 2:
            return
        if self.rank == 1:
            self.arcs(
                list(itertools.pairwise(pts)), PATH_COLOR, "execution order", 1.0, above=False
            )
            return
        self.ax.plot(
            *self.columns(pts), color=PATH_COLOR, linewidth=1.2, zorder=1, label="execution order"
        )

    def text(
        self, at: Sequence[float], text: str, offset: tuple[float, float] = (0, 0), **style: Any
    ) -> None:
        """``text`` centred at ``at``, moved by ``offset`` points (not in 3-d)."""
        style = {"ha": "center", "va": "center", "fontsize": 8, "zorder": 4, **style}
        where = [c[0] for c in self.columns([at])]
        if isinstance(self.ax, Axes3D):
            x, y, z = where
            self.ax.text(x, y, z, text, **style)
        else:
            x, y = where
            self.ax.annotate(text, (x, y), xytext=offset, textcoords="offset points", **style)

    def outlines(self, tile_of: Mapping[Point, Point]) -> None:
        """The boundary of each tile's unit cells (the edges between cells of different
        tiles, or of a tile and the outside); 3-d tiles have no outline."""
        if self.rank == 3:
            return
        segments = []
        for point, tile in tile_of.items():
            for k in range(self.rank):
                for step in (-1, 1):
                    neighbour = tuple(x + (step if j == k else 0) for j, x in enumerate(point))
                    if tile_of.get(neighbour) != tile:
                        segments.append(self.cell_side(point, k, step))
        self.ax.add_collection(LineCollection(segments, colors="#333333", linewidths=1.0))

    def cell_side(self, point: Point, k: int, step: int) -> list[tuple[float, float]]:
        """The side of ``point``'s unit cell facing ``step`` along dimension ``k``."""
        if self.rank == 1:
            x = point[0] + step / 2
            return [(x, -0.5), (x, 0.5)]
        corners = []
        for other in (-0.5, 0.5):
            corner = [float(x) for x in point]
            corner[k] += step / 2
            corner[1 - k] += other
            corners.append(corner)
        (x0, x1), (y0, y1) = self.columns(corners)
        return [(x0, y0), (x1, y1)]

    def frame(self, pts: Sequence[Point]) -> None:
        """Limits with half a cell of margin around ``pts``."""
        columns = self.columns(pts)
        limits = [(min(c) - 0.6, max(c) + 0.6) for c in columns]
        if self.rank == 1:
            limits[1] = (-1.2, 1.2)
        self.ax.set_xlim(*limits[0])
        if self.rank == 2 and self.matrix:
            self.ax.set_ylim(limits[1][1], limits[1][0])
        else:
            self.ax.set_ylim(*limits[1])
        if isinstance(self.ax, Axes3D):
            self.ax.set_zlim(*limits[2])

    def cells(self) -> None:
        """Grid lines between the unit cells of integer positions (not in 3-d)."""
        if self.rank == 3:
            return
        axes = [self.ax.xaxis] if self.rank == 1 else [self.ax.xaxis, self.ax.yaxis]
        for axis in axes:
            axis.set_minor_locator(MultipleLocator(1.0, offset=0.5))
            axis.grid(True, which="minor", color="#dddddd", linewidth=0.8)
        self.ax.tick_params(which="minor", length=0)
        self.ax.set_axisbelow(True)

    def legend(self, below: bool = False) -> None:
        """The legend of the labelled artists, right of the axes (or below them)."""
        handles, labels = self.ax.get_legend_handles_labels()
        if not handles:
            return
        loc: Literal["upper left", "upper center"] = "upper center" if below else "upper left"
        anchor = (0.5, -0.03) if below else (1.02, 1.0)
        self.ax.legend(
            handles, labels, loc=loc, bbox_to_anchor=anchor, fontsize=7, borderaxespad=0.0
        )


def _tile_color(tile: Point) -> str:
    return TILE_COLORS[sum(t << k for k, t in enumerate(tile)) % ((1 << len(tile)) + 1)]


def _centre(pts: Sequence[Point]) -> tuple[float, ...]:
    return tuple(sum(column) / len(pts) for column in zip(*pts))


def _draw_domain(
    canvas: _Canvas,
    domain: _Domain,
    arrows: Sequence[_Arrows],
    tile_of: Mapping[Point, Point] | None,
    times: Mapping[Point, Point] | None,
    order: str,
    levels: int,
) -> str:
    """Draw the domain's points (coloured by tile or wavefront), the tile outlines and
    numbers, the execution path and the dependence arrows (those the schedule ``times``
    does not respect in red); returns a one-line summary."""
    summary = [f"{len(domain.points)} points"]
    if tile_of is not None:
        members: dict[Point, list[Point]] = defaultdict(list)
        for point in domain.points:
            members[tile_of[point]].append(point)
        for number, tile in enumerate(sorted(members)):
            canvas.points(members[tile], _tile_color(tile), gid=f"tile {number}")
            canvas.text(
                _centre(members[tile]),
                str(number),
                offset=(0, 9) if canvas.rank == 1 else (0, 0),
                fontweight="bold",
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "alpha": 0.8, "lw": 0},
            )
        canvas.outlines(tile_of)
        summary.append(f"{len(members)} tiles")
    elif times is not None and order == "wavefront":
        fronts: dict[Point, list[Point]] = defaultdict(list)
        for point in domain.points:
            fronts[times[point][:levels]].append(point)
        colors = colormaps["viridis"].resampled(max(len(fronts), 2))
        for number, front in enumerate(sorted(fronts)):
            canvas.points(fronts[front], colors(number), gid=f"wavefront {number}")
        mappable = ScalarMappable(BoundaryNorm(range(len(fronts) + 1), colors.N), colors)
        bar = canvas.figure.colorbar(mappable, ax=canvas.ax, shrink=0.8, label="wavefront")
        bar.set_ticks(
            [k + 0.5 for k in range(len(fronts))], labels=[str(k) for k in range(len(fronts))]
        )
        summary.append(f"{len(fronts)} wavefronts")
    else:
        canvas.points(domain.points, POINT_COLOR, gid="points")
    if times is not None and order == "path":
        ordered = sorted(domain.points, key=lambda p: (times[p], p))
        canvas.path(ordered)
        if len(ordered) <= 64:
            for rank, point in enumerate(ordered):
                canvas.text(point, str(rank), offset=(6, 6), fontsize=6, color="#333333")
    violated = 0
    for group in arrows:
        kept, broken = _split_by_order(group, times) if times is not None else (group.pairs, [])
        canvas.arrows(kept, group.color, group.label, 1.0)
        canvas.arrows(broken, VIOLATED_COLOR, f"{group.label}: violated", 2.0)
        violated += len(broken)
    if arrows:
        pairs = sum(len(group.pairs) for group in arrows)
        summary.append(f"{pairs} dependence pairs" + (f", {violated} violated" if times else ""))
    canvas.frame(domain.points)
    canvas.legend()
    return ", ".join(summary)


def _split_by_order(
    group: _Arrows, times: Mapping[Point, Point]
) -> tuple[list[tuple[Point, Point]], list[tuple[Point, Point]]]:
    """The pairs whose source runs strictly before the target, and the others."""
    kept: list[tuple[Point, Point]] = []
    broken: list[tuple[Point, Point]] = []
    for source, target in group.pairs:
        if source not in times or target not in times:
            raise ValueError(
                f"the dependence {group.label} pairs {source} with {target}, outside the domain"
            )
        (kept if times[source] < times[target] else broken).append((source, target))
    return kept, broken


def _check_order(order: str, levels: int) -> None:
    if order not in ("path", "wavefront"):
        raise ValueError(f"order is 'path' or 'wavefront', not {order!r}")
    if levels < 1:
        raise ValueError(f"a wavefront is given by at least one schedule dimension, not {levels}")


def plot_domain(
    domain: DomainLike,
    params: Params | None = None,
    *,
    dependences: DependenceLike | Iterable[DependenceLike] = (),
    tiles: Sequence[int] | RelationLike | None = None,
    schedule: RelationLike | None = None,
    order: str = "path",
    levels: int = 1,
    title: str | None = None,
    max_points: int = MAX_POINTS,
) -> Picture:
    """The integer points of an iteration domain (1 to 3 dimensions), with optional layers.

    ``domain``: a statement of :mod:`poly.model` (axes named after its loops), an ISL set or
    its text. ``params`` fixes every parameter. ``dependences``: analysis edges
    (:class:`poly.flow.Edge`, drawn on their common loops) or ISL relations between
    instances, one arrow per pair. ``tiles``: tile sizes or a relation from instances to
    tile coordinates; tiles are coloured, outlined and numbered in lexicographic order.
    ``schedule``: a map from instances to times; ``order="path"`` joins the points in
    execution order (numbered when there are at most 64), ``"wavefront"`` colours them by
    the first ``levels`` time dimensions; dependence pairs it does not run in order are red.
    """
    params = params or {}
    _check_order(order, levels)
    data = _domain(domain, params, max_points)
    arrows = _dependence_arrows(dependences, data.rank, params, data.scope, max_points)
    tile_of = None if tiles is None else _tiles(tiles, data, params, max_points)
    times = None if schedule is None else _images(schedule, data, params, "schedule", max_points)
    picture = _picture(*_panel_size(data, times is not None and order == "wavefront"))
    canvas = _Canvas(picture, (1, 1, 1), data.rank, data.labels)
    summary = _draw_domain(canvas, data, arrows, tile_of, times, order, levels)
    canvas.ax.set_title(title or f"{data.title}\n{summary}", fontsize=9)
    return picture


def _panel_size(domain: _Domain, colorbar: bool) -> tuple[float, float]:
    """Inches for a picture of the domain: about 0.4 per position, room for the legend."""
    if domain.rank == 3:
        return 7.5, 6.0
    extents = [max(column) - min(column) + 1 for column in zip(*domain.points)]
    width = _size(extents[0]) + 2.5 + (1.0 if colorbar else 0.0)
    return width, 2.6 if domain.rank == 1 else _size(extents[1]) + 0.6


def plot_schedules(
    domain: DomainLike,
    before: RelationLike,
    after: RelationLike,
    params: Params | None = None,
    *,
    dependences: DependenceLike | Iterable[DependenceLike] = (),
    order: str = "path",
    levels: int = 1,
    titles: tuple[str, str] = ("before", "after"),
    max_points: int = MAX_POINTS,
) -> Picture:
    """Two schedules of one domain side by side (see :func:`plot_domain`): the execution
    order of each, and the dependence pairs each runs out of order in red."""
    params = params or {}
    _check_order(order, levels)
    data = _domain(domain, params, max_points)
    arrows = _dependence_arrows(dependences, data.rank, params, data.scope, max_points)
    width, height = _panel_size(data, order == "wavefront")
    picture = _picture(2 * width, height)
    for k, (schedule, name) in enumerate(zip((before, after), titles)):
        times = _images(schedule, data, params, "schedule", max_points)
        canvas = _Canvas(picture, (1, 2, k + 1), data.rank, data.labels)
        summary = _draw_domain(canvas, data, arrows, None, times, order, levels)
        canvas.ax.set_title(f"{name}: {data.title}\n{summary}", fontsize=9)
    return picture


def small_params(domain: isl.Set | isl.UnionSet, limit: int = 100) -> dict[str, int]:
    """The largest value of 8, 7, ..., 1 that, given to every parameter, leaves the domain
    non-empty with at most ``limit`` points (by ISL name; empty without parameters)."""
    sets = _sets_of(domain) if isinstance(domain, isl.UnionSet) else [domain]
    names = sorted({name for s in sets for name in param_names(s)})
    if not names:
        return {}
    for value in range(8, 0, -1):
        values = dict.fromkeys(names, value)
        count = sum(
            count_points(bind_params(s, dict.fromkeys(param_names(s), value))) for s in sets
        )
        if 0 < count <= limit:
            return values
    raise ValueError(f"no small parameter values give {domain} a few points to draw")


def _sets_of(union: isl.UnionSet) -> list[isl.Set]:
    found = union.get_set_list()
    return [found.get_at(k) for k in range(found.n_set())]


def schedule_dependence_label(d: Dependence) -> str:
    """``RAW %A @9→@6``: a dependence of a :class:`~poly.schedule.Schedule`'s program by
    kind, memref and source lines (``may`` where it is over-approximated)."""
    memrefs = [v.name or "?" for v in d.source_op.operands if isinstance(v.type, MemRefType)]
    lines = [op.loc.line if op.loc is not None else "?" for op in (d.source_op, d.target_op)]
    text = f"{d.kind} {' '.join(memrefs[:1])} @{lines[0]}→@{lines[1]}".replace("  ", " ")
    return text if d.exact else f"{text} (may)"


def plot_schedule(
    schedule: Schedule,
    params: Params | None = None,
    *,
    statement: str | None = None,
    value_based: bool = False,
    title: str | None = None,
    max_points: int = MAX_POINTS,
) -> Picture:
    """One statement's instances in the order of a :class:`~poly.schedule.Schedule` (its
    2d+1 map), joined and numbered in that order, with the statement's dependences on
    itself as arrows: those the schedule runs out of order in red, and when the schedule's
    :meth:`~poly.schedule.Schedule.check` names a violation on this statement, its witness
    pair ringed in red. ``statement``: ``S0`` (by default the first with 1 to 3 loops);
    ``params`` by ISL name (``N``) or SSA name (``%N``), by default :func:`small_params`."""
    chosen = _schedule_statement(schedule, statement)
    if params is None:
        params = small_params(chosen.domain)
    data = _domain(chosen.domain, params, max_points)
    data.labels = list(chosen.loop_names)
    dependences, _ = schedule.program.dependences(value_based)
    own = [d for d in dependences if d.source is chosen and d.target is chosen]
    arrows = []
    for d in own:
        pairs = _pairs(_bound(d.relation, params, None), max_points, "a dependence")
        arrows.append(
            _Arrows(
                schedule_dependence_label(d),
                KIND_COLORS.get(d.kind, OTHER_COLOR),
                [(a, b) for a, b in pairs if a != b],
            )
        )
    times = _images(schedule.maps[chosen.name], data, params, "schedule", max_points)
    picture = _picture(*_panel_size(data, False))
    canvas = _Canvas(picture, (1, 1, 1), data.rank, data.labels)
    summary = _draw_domain(canvas, data, arrows, None, times, "path", 1)
    verdict = schedule.check(value_based=value_based)
    violation = verdict.violation
    if violation is not None and violation.dependence in own:
        pair = [violation.source, violation.target]
        if all(p in times for p in pair):
            canvas.points(pair, VIOLATED_COLOR, "witness", "witness pair", size=220, hollow=True)
            canvas.legend()
    fixed = ", ".join(f"{k} = {v}" for k, v in params.items())
    heading = title or f"{chosen.name} in the new order: {verdict.status}"
    canvas.ax.set_title(f"{heading}\n{summary}" + (f" (for {fixed})" if fixed else ""), fontsize=9)
    return picture


def _schedule_statement(schedule: Schedule, name: str | None) -> Any:
    if name is not None:
        return schedule.program.statement(name)
    for s in schedule.statements:
        if 1 <= s.depth <= 3:
            return s
    raise ValueError("no statement of the schedule has 1 to 3 loops to draw")


def plot_distances(
    dependences: DependenceLike | Iterable[DependenceLike],
    params: Params | None = None,
    *,
    title: str | None = None,
    max_points: int = MAX_POINTS,
) -> Picture:
    """The distance vectors of dependences, as arrows from the origin (a ring at the origin
    for distance 0): for analysis edges on their common loops, for ISL relations target
    minus source."""
    params = params or {}
    groups: list[tuple[str, str, list[Point]]] = []
    labels: list[str] | None = None
    for dependence in _as_list(dependences, (Edge, isl.Map, isl.BasicMap, isl.UnionMap, str)):
        if isinstance(dependence, Edge):
            if dependence.distances is None:
                raise ValueError(f"{dependence!r} is unknown: it has no distances to draw")
            sets = [(dependence.distances, dependence_label(dependence))]
            color = KIND_COLORS.get(dependence.kind, OTHER_COLOR)
            scope = dependence.source.statement.scope
            labels = labels or _loop_labels(dependence.source.statement)[: len(dependence.common)]
        else:
            maps = [
                m.reset_tuple_id(isl.dim_type.in_).reset_tuple_id(isl.dim_type.out)
                for m in _read_maps(dependence)
            ]
            sets = [(m.deltas(), _relation_label(m)) for m in maps]
            color, scope = OTHER_COLOR, None
        for distances, label in sets:
            bound = _bound(distances, params, scope)
            groups.append(
                (label, color, _enumerate(bound, max_points, f"the distances of {label}"))
            )
    ranks = {len(vectors[0]) for _, _, vectors in groups if vectors}
    if len(ranks) != 1 or not 1 <= next(iter(ranks)) <= 3:
        raise ValueError(f"distance vectors of one length, 1 to 3, are needed (got {ranks})")
    rank = ranks.pop()
    labels = [f"distance along {name}" for name in (labels or [f"d{k}" for k in range(rank)])]
    picture = _picture(6.5, 4.5 if rank > 1 else 2.6)
    canvas = _Canvas(picture, (1, 1, 1), rank, labels)
    origin = (0,) * rank
    for label, color, vectors in groups:
        canvas.arrows([(origin, v) for v in vectors if v != origin], color, label, 1.5)
        if origin in vectors:
            canvas.points(
                [origin],
                color,
                f"distance 0 {label}",
                f"{label}: distance 0",
                size=160,
                hollow=True,
            )
        if len(vectors) <= 12:
            for v in vectors:
                canvas.text(v, "(" + ", ".join(map(str, v)) + ")", offset=(0, 9), fontsize=7)
    canvas.frame([origin] + [v for _, _, vectors in groups for v in vectors])
    canvas.legend()
    canvas.ax.set_title(title or "dependence distances", fontsize=9)
    return picture


# -- the dependence graph ------------------------------------------------------------------------

_BOUND = re.compile(r"\[([-+]?\w+), ([-+]?\w+)\]")


def _distance_text(distance: str) -> str:
    """``(1, 0..3, *)`` from the graph's ``[lb, ub]`` intervals, one per common loop."""
    parts = []
    for low, high in _BOUND.findall(distance):
        if low == high:
            parts.append(low)
        elif "inf" in low and "inf" in high:
            parts.append("*")
        elif "inf" in high:
            parts.append(f"≥{low}")
        elif "inf" in low:
            parts.append(f"≤{high}")
        else:
            parts.append(f"{low}..{high}")
    return "(" + ", ".join(parts) + ")"


def _node_texts(graph: nx.MultiDiGraph, analysis: FlowAnalysis | None) -> dict[str, str]:
    """``S2: affine.store %A[%i, %j] @7`` for each node (source names from the analysis's
    model when there is one)."""
    ops: dict[str, Operation] = {}
    if analysis is not None:
        model = analysis.model
        ops.update({f"A{k}": a.op for k, a in enumerate(model.accesses)})
        ops.update({s.name: s.op for s in model.statements})
        loops = {str(loop.loc): loop for s in model.statements for loop in s.loops}
        for name, data in graph.nodes(data=True):
            if data.get("location") in loops and name.startswith("N"):
                ops[name] = loops[data["location"]]
    texts = {}
    for name, data in graph.nodes(data=True):
        op = ops.get(name)
        if op is None:
            where = str(data.get("location", "")).rsplit(":", 2)[-2:]
            texts[name] = f"{name}: {data.get('op', '')}" + (f" @{where[0]}" if where else "")
        elif op.name in ("affine.for", "affine.parallel"):
            ivs = " ".join(a.name or "?" for a in op.regions[0].blocks[0].arguments[:1])
            texts[name] = f"{name}: {op.name} {ivs}" + (f" @{op.loc.line}" if op.loc else "")
        else:
            texts[name] = f"{name}: {_op_text(op)}"
    return texts


def plot_graph(
    source: FlowAnalysis | nx.MultiDiGraph,
    level: str = "statement",
    value_based: bool = False,
    *,
    title: str | None = None,
) -> Picture:
    """The dependence graph (:func:`poly.graph.dependence_graph`) as an arc diagram: nodes
    top to bottom in program order, every edge an arc on the left labelled with its kind,
    distance and the loops that carry it. Loop-carried edges are solid, loop-independent
    ones dashed; colours give the kind."""
    analysis: FlowAnalysis | None = None
    if isinstance(source, FlowAnalysis):
        analysis, graph = source, dependence_graph(source, level, value_based)
    else:
        graph = source
    texts = _node_texts(graph, analysis)
    nodes = list(graph.nodes)
    height = {name: -float(k) for k, name in enumerate(nodes)}
    picture = _picture(8.0, 3.0)
    ax = picture.add_subplot(1, 1, 1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    for name in nodes:
        ax.plot([0.0], [height[name]], "o", color="#333333", markersize=7, zorder=3)
        ax.text(0.25, height[name], texts[name], va="center", fontsize=8, family="monospace")
    between = Counter(frozenset((u, v)) for u, v in graph.edges())
    seen: dict[frozenset[str], int] = defaultdict(int)
    left = 0.0
    kinds = []
    for u, v, data in graph.edges(data=True):
        pair = frozenset((u, v))
        label = _edge_text(data)
        arc = _Arc(f"{u} -> {v}", height[u], height[v], seen[pair], between[pair])
        left = min(left, _draw_arc(ax, arc, label, data))
        seen[pair] += 1
        kinds.append(data["kind"])
    # one data unit is about 0.9 inch; a character of the 7-8 point labels about 0.07 unit
    right = 0.45 + 0.075 * max((len(text) for text in texts.values()), default=0)
    ax.set_xlim(left - 0.2, right)
    ax.set_ylim(-len(nodes) + 0.4, 0.6)
    picture.set_size_inches(0.9 * (right - left) + 2.0, 0.9 * len(nodes) + 1.0)
    styles = [
        Line2D([], [], color=KIND_COLORS.get(k, OTHER_COLOR), label=k) for k in sorted(set(kinds))
    ]
    styles += [
        Line2D([], [], color="#333333", label="loop-carried"),
        Line2D([], [], color="#333333", linestyle="--", label="loop-independent"),
    ]
    ax.legend(handles=styles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    kind = "value-based" if value_based else "memory-based"
    ax.set_title(
        title or f"{kind} dependences between {graph.graph.get('level', level)}s", fontsize=9
    )
    return picture


def _edge_text(data: Mapping[str, Any]) -> str:
    """``RAW (1, -1) carried by %i``: kind, distance, carrying loops (their IVs) of a graph
    edge."""
    text = f"{data['kind']} {_distance_text(data['distance'])}"
    if not data["carried_by"]:
        return text + " loop-independent"
    return text + " carried by " + ", ".join(c.partition(" at ")[0] for c in data["carried_by"])


@dataclass
class _Arc:
    """Where one edge of the arc diagram goes: ``parallel`` of ``between`` edges joining
    the same two nodes (either way)."""

    name: str
    y_source: float
    y_target: float
    parallel: int
    between: int


def _draw_arc(ax: Axes, arc: _Arc, label: str, data: Mapping[str, Any]) -> float:
    """One edge as an arc bulging left of the node column, its label left of the arc's
    apex (labels of edges between the same nodes stacked); returns the label's left end."""
    carried = bool(data["carried_by"])
    color = KIND_COLORS.get(data["kind"], OTHER_COLOR)
    if arc.y_source == arc.y_target:  # a self loop: an arc from above the node to below it
        start, end = (0.0, arc.y_source + 0.13), (0.0, arc.y_source - 0.13)
        rad = 2.2 + 1.2 * arc.parallel
    else:
        start, end = (0.0, arc.y_source), (0.0, arc.y_target)
        rad = 0.35 + 0.3 * arc.parallel
        rad = rad if arc.y_target < arc.y_source else -rad  # arc3 bends left going down
    arrow = FancyArrowPatch(
        start,
        end,
        connectionstyle=f"arc3,rad={rad}",
        arrowstyle="-|>",
        mutation_scale=11,
        color=color,
        linewidth=1.6 if carried else 1.0,
        linestyle="-" if carried else "--",
        shrinkA=5,
        shrinkB=5,
        zorder=2,
        gid=f"{arc.name}: {label}",
    )
    ax.add_patch(arrow)
    # arc3's middle control point is rad * (dy, -dx) from the chord's middle; the curve
    # passes halfway there (equal aspect: data and display directions agree)
    dx, dy = end[0] - start[0], end[1] - start[1]
    x = (start[0] + end[0]) / 2 + rad * dy / 2 - 0.08
    y = (start[1] + end[1]) / 2 - rad * dx / 2 - 0.2 * (arc.parallel - (arc.between - 1) / 2)
    ax.text(x, y, label, ha="right", va="center", fontsize=7, color=color)
    return x - 0.065 * len(label)


# -- access footprints --------------------------------------------------------------------------


def plot_footprint(
    accesses: Access | RelationLike | Iterable[Access | RelationLike],
    params: Params | None = None,
    *,
    instances: isl.Set | str | None = None,
    title: str | None = None,
    max_points: int = MAX_POINTS,
) -> Picture:
    """The elements each access touches, on its memref's index space (one panel per memref,
    drawn as a matrix; the memref's shape framed where its type gives it). ``accesses``:
    accesses of :mod:`poly.model` or ISL relations from instances to elements.
    ``instances`` restricts the instances (one tile, one iteration): a set on as many
    dimensions as the accesses' statements have loops."""
    params = params or {}
    panels: dict[str, list[tuple[str, str, list[Point]]]] = defaultdict(list)
    shapes: dict[str, Sequence[int] | None] = {}
    single = (Access, isl.Map, isl.BasicMap, isl.UnionMap, str)
    for item in _as_list(accesses, single):
        for memref, label, is_write, relation, scope, shape in _access_relations(item):
            relation = _bound(relation, params, scope)
            if instances is not None:
                relation = _restrict(relation, instances, params, scope)
            elements = _enumerate(relation.range(), max_points, f"the footprint of {label}")
            panels[memref].append((label, "s" if is_write else "o", elements))
            shapes[memref] = shapes.get(memref) or shape
    if not panels:
        raise ValueError("no access to draw")
    picture = _picture(4.5 * len(panels), 5.5)
    for k, (memref, drawn) in enumerate(panels.items()):
        _draw_footprint(picture, (1, len(panels), k + 1), memref, drawn, shapes[memref])
    if title:
        picture.suptitle(title, fontsize=10)
    return picture


def _access_relations(
    item: Access | RelationLike,
) -> list[tuple[str, str, bool, isl.Map, Scope | None, Sequence[int] | None]]:
    """(memref name, label, is a write, relation, scope, shape) of an access or relation."""
    if isinstance(item, Access):
        memref = _source_name(item.memref, item.memref_name)
        t = item.memref.type
        rank = item.relation.dim(isl.dim_type.out)
        shape = None
        if isinstance(t, MemRefType) and not t.layout and len(t.shape) == rank:
            shape = None if DYNAMIC in t.shape else list(t.shape)
        label = f"{item.kind} {_touched_text(item.op)}"
        return [(memref, label, item.kind == WRITE, item.relation, item.statement.scope, shape)]
    found: list[tuple[str, str, bool, isl.Map, Scope | None, Sequence[int] | None]] = []
    for relation in _read_maps(item):
        name = (
            relation.get_tuple_name(isl.dim_type.out)
            if relation.has_tuple_name(isl.dim_type.out)
            else "memref"
        )
        found.append((name, _relation_label(relation), False, relation, None, None))
    return found


def _restrict(
    relation: isl.Map, instances: isl.Set | str, params: Params, scope: Scope | None
) -> isl.Map:
    """``relation`` on the instances of ``instances`` (matched by position, whatever their
    tuple name)."""
    chosen = _bound(_read_set(instances), params, scope)
    if chosen.dim(isl.dim_type.set) != relation.dim(isl.dim_type.in_):
        raise ValueError(
            f"the instances {chosen} have {chosen.dim(isl.dim_type.set)} dimensions; the "
            f"access has {relation.dim(isl.dim_type.in_)} loops"
        )
    if relation.has_tuple_name(isl.dim_type.in_):
        chosen = chosen.set_tuple_name(relation.get_tuple_name(isl.dim_type.in_))
    else:
        chosen = chosen.reset_tuple_id()
    return relation.intersect_domain(chosen)


def _draw_footprint(
    picture: Picture,
    position: tuple[int, int, int],
    memref: str,
    drawn: Sequence[tuple[str, str, list[Point]]],
    shape: Sequence[int] | None,
) -> None:
    ranks = {len(elements[0]) for _, _, elements in drawn if elements}
    if len(ranks) > 1 or not 1 <= (rank := ranks.pop() if ranks else 1) <= 3:
        raise ValueError(f"the accesses of {memref} touch elements of different ranks {ranks}")
    labels = [f"index {k}" for k in range(rank)]
    canvas = _Canvas(picture, position, rank, labels, matrix=True)
    # an index space starts at 0: drawn from there, panels of one memref compare
    extent: list[Point] = [(0,) * rank] + [e for _, _, elements in drawn for e in elements]
    if shape is not None and rank < 3:
        corners = [tuple(0 for _ in shape), tuple(size - 1 for size in shape)]
        (x0, x1), (y0, y1) = canvas.columns(corners)
        canvas.ax.add_patch(
            Rectangle(
                (x0 - 0.5, y0 - 0.5),
                x1 - x0 + 1,
                y1 - y0 + 1,
                fill=False,
                edgecolor="#999999",
                linewidth=1.0,
            )
        )
        extent += corners
    colors = colormaps["tab10"]
    for k, (label, marker, elements) in enumerate(drawn):
        shift = (k - (len(drawn) - 1) / 2) * min(0.3, 0.8 / len(drawn)) if rank < 3 else 0.0
        shifted = [
            (e[0], *(x + shift for x in e[1:])) if rank > 1 else (e[0] + shift,) for e in elements
        ]
        canvas.points(
            shifted,
            colors(k % 10),
            label=f"{label}: {len(elements)} elements",
            marker=marker,
            size=30,
            gid=f"footprint {k}",
        )
    canvas.frame(extent)
    canvas.cells()
    canvas.legend(below=True)
    canvas.ax.set_title(memref, fontsize=9)
