"""Memref layouts answered exactly with ISL: one-to-one checks of layout compositions,
access footprints and bounding boxes, and normalisation with exact bounds.

Invariant: every answer is exact over the integers; a layout is judged on the memref's index
space (``0 <= i_k < size_k``, a ``?`` size is a parameter), not on all of Z^n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from affine.analysis.layout import LayoutOracle
from affine.analysis.layout import normalize_memref_type as _normalize_type
from affine.ir.types import DYNAMIC, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.integer_set import IntegerSet
from poly.context import budget
from poly.convert import box_set, map_to_isl, set_to_isl
from poly.sets import Piecewise, piecewise
from poly.space import align_params, composition_symbol_names, dim_names, size_names


@dataclass(frozen=True)
class OneToOne:
    """The verdict on one map of a layout composition: ``witness`` is two distinct points
    of the map's domain (with the parameter values) that it sends to the same point."""

    map: AffineMap
    one_to_one: bool
    witness: tuple[tuple[int, ...], tuple[int, ...], dict[str, int]] | None = None


def _index_space(t: MemRefType) -> isl.Set:
    sizes = size_names(t.shape, DYNAMIC)
    return box_set(sizes, [s for s in sizes if isinstance(s, str)])


def one_to_one_on(t: MemRefType, symbol_values: Mapping[int, int] | None = None) -> list[OneToOne]:
    """Whether each map of ``t``'s layout composition is one-to-one on its domain: the
    memref's index space for the first map, the image of the previous map for the others
    (the seed specification requires all of them to be).  Symbols of the composition (in
    order, first map's first) may be bound by ``symbol_values``; unbound ones, and ``?``
    sizes, range over all values.  A strided layout is one map."""
    verdicts: list[OneToOne] = []
    maps = t.layout_maps
    with budget(what="one-to-one check"):
        domain = _index_space(t)
        first_symbol = 0
        for k, m in enumerate(maps):
            local = {
                j: symbol_values[first_symbol + j]
                for j in range(m.num_symbols)
                if symbol_values and first_symbol + j in symbol_values
            }
            names = composition_symbol_names(k, m.num_symbols)
            relation = map_to_isl(m, names, symbol_values=local)
            relation, domain = _aligned(relation, domain)
            relation = relation.intersect_domain(domain)
            verdicts.append(_verdict(m, relation))
            domain = _unnamed(relation.range())
            first_symbol += m.num_symbols
    return verdicts


def _unnamed(s: isl.Set) -> isl.Set:
    """``s`` with set dimensions renamed ``d0..`` (the input names of the next map)."""
    for i, name in enumerate(dim_names(s.dim(isl.dim_type.set))):
        s = s.set_dim_name(isl.dim_type.set, i, name)
    return s


def _aligned(relation: isl.Map, domain: isl.Set) -> tuple[isl.Map, isl.Set]:
    relation, domain_as_map = align_params(relation, isl.Map.from_domain(domain))
    return relation, domain_as_map.domain()


def _verdict(m: AffineMap, relation: isl.Map) -> OneToOne:
    if relation.is_injective():
        return OneToOne(m, True)
    # Two inputs with one image: (x, y) with R(x) = R(y) and x != y.
    same_image = relation.apply_range(relation.reverse())
    pairs = same_image.subtract(isl.Map.identity(same_image.get_space())).wrap()
    point = pairs.sample_point()
    n = m.num_dims
    coords = [int(point.get_coordinate_val(isl.dim_type.set, i).to_python()) for i in range(2 * n)]
    params: dict[str, int] = {}
    for k in range(pairs.dim(isl.dim_type.param)):
        name = pairs.get_dim_name(isl.dim_type.param, k)
        assert name is not None  # the model names every parameter (poly.space)
        params[name] = int(point.get_coordinate_val(isl.dim_type.param, k).to_python())
    return OneToOne(m, False, (tuple(coords[:n]), tuple(coords[n:]), params))


def _access_region(
    access: AffineMap, domain: IntegerSet, symbol_values: Mapping[int, int] | None
) -> isl.Set:
    if (access.num_dims, access.num_symbols) != (domain.num_dims, domain.num_symbols):
        raise ValueError(f"{access} and {domain} have different dims or symbols")
    relation = map_to_isl(access, symbol_values=symbol_values)
    return relation.intersect_domain(set_to_isl(domain, symbol_values=symbol_values)).range()


def footprint(
    access: AffineMap, domain: IntegerSet, symbol_values: Mapping[int, int] | None = None
) -> int:
    """The number of distinct elements ``access`` touches over the points of ``domain``
    (both over the same dims, e.g. loop induction variables, and symbols; all symbols
    bound)."""
    with budget(what="footprint"):
        region = _access_region(access, domain, symbol_values)
        if region.dim(isl.dim_type.param):
            raise ValueError("bind every symbol to count a footprint")
        if not region.is_bounded():
            raise ValueError(f"{access} touches infinitely many elements on {domain}")
        return int(region.count_val().to_python())


def bounding_box(
    access: AffineMap, domain: IntegerSet, symbol_values: Mapping[int, int] | None = None
) -> list[tuple[int | None, int | None]]:
    """Per memref dimension, the least and greatest index ``access`` touches over
    ``domain`` (over all values of unbound symbols; None where unbounded)."""
    with budget(what="bounding box"):
        region = _access_region(access, domain, symbol_values)
        if region.is_empty():
            raise ValueError(f"{access} touches nothing on {domain}")
        return [
            (_finite(region.dim_min_val(k)), _finite(region.dim_max_val(k)))
            for k in range(access.num_results)
        ]


def parametric_bounding_box(
    access: AffineMap, domain: IntegerSet
) -> list[tuple[Piecewise, Piecewise]]:
    """Per memref dimension, the least and greatest index as functions of the symbols."""
    with budget(what="parametric bounding box"):
        region = _access_region(access, domain, None)
        return [
            (
                piecewise(region.dim_min(k), access.num_symbols),
                piecewise(region.dim_max(k), access.num_symbols),
            )
            for k in range(access.num_results)
        ]


def _finite(v: isl.Val) -> int | None:
    return None if v.is_infty() or v.is_neginfty() else int(v.to_python())


class IslOracle:
    """Exact bounds and one-to-one answers for :mod:`affine.analysis.layout` from ISL."""

    def result_bounds(self, m: AffineMap, shape: Sequence[int]) -> list[tuple[int, int]]:
        with budget(what="layout bounds"):
            image = map_to_isl(m).intersect_domain(box_set(list(shape))).range()
            return [
                (int(image.dim_min_val(k).to_python()), int(image.dim_max_val(k).to_python()))
                for k in range(m.num_results)
            ]

    def one_to_one(self, m: AffineMap, shape: Sequence[int]) -> bool:
        with budget(what="one-to-one check"):
            return map_to_isl(m).intersect_domain(box_set(list(shape))).is_injective()


ISL_ORACLE: LayoutOracle = IslOracle()


def normalize_memref_type(
    t: MemRefType, symbol_values: Mapping[int, int] | None = None
) -> tuple[MemRefType, AffineMap]:
    """:func:`affine.analysis.layout.normalize_memref_type` with exact ISL bounds (any size)."""
    return _normalize_type(t, symbol_values, ISL_ORACLE)
