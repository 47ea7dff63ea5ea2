"""The ISL bridge (poly/convert.py, poly/space.py, poly/context.py): exact conversion of
maps and sets, back again where expressible, naming, budgets."""

from __future__ import annotations

import itertools

import islpy as isl
import pytest
from affine_strategies import box, exprs, integer_sets, maps
from hypothesis import example, given, settings

from affine import AffineMap, IntegerSet, parse_affine_map, parse_integer_set
from poly import (
    IslBudgetExceeded,
    NotExpressibleError,
    NotPresburgerError,
    budget,
    inverse_on_image,
    isl_context,
    map_from_isl,
    map_to_isl,
    set_from_isl,
    set_to_isl,
    sets_from_isl,
)
from poly.convert import expr_to_pw_aff
from poly.space import align_params, map_space, param_names, set_space


def _image(
    relation: isl.Map, point: tuple[int, ...], params: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """The images of ``point`` under ``relation`` with the parameters fixed (enumerated)."""
    fixed = relation
    for k, v in enumerate(params):
        fixed = fixed.fix_val(isl.dim_type.param, k, isl.Val.int_from_si(isl_context(), v))
    for i, v in enumerate(point):
        fixed = fixed.fix_val(isl.dim_type.in_, i, isl.Val.int_from_si(isl_context(), v))
    found: list[tuple[int, ...]] = []
    fixed.range().foreach_point(
        lambda p: found.append(
            tuple(
                int(p.get_coordinate_val(isl.dim_type.set, k).to_python())
                for k in range(relation.dim(isl.dim_type.out))
            )
        )
    )
    return found


@settings(max_examples=100, deadline=None)
@given(maps(num_dims=2, num_symbols=1, num_results=2))
def test_isl_relation_is_the_function(m: AffineMap) -> None:
    # Each point relates to exactly one image, the map's value (ISL enumerates it).
    relation = map_to_isl(m)
    for ds, ss in box(2, 1, range(-3, 4), range(1, 3)):
        assert _image(relation, ds, ss) == [tuple(m.evaluate(ds, ss))]


@settings(max_examples=100, deadline=None)
@given(maps(num_dims=2, num_symbols=1, num_results=2))
# ISL gives this map in two pieces though each result alone is one: read result by result
@example(parse_affine_map("(d0, d1)[s0] -> (d0 floordiv 2, d0 mod 3 - d0 + s0 floordiv 2)"))
def test_map_to_isl_and_back_is_the_same_function(m: AffineMap) -> None:
    # ISL may keep a division of a division (``(s0 floordiv 5) mod 3``) only as several
    # pieces; such a map may come back as a clear NotExpressibleError. Every other map must
    # come back as the same function.
    try:
        back = map_from_isl(map_to_isl(m))
    except NotExpressibleError:
        assert any(_nested_division(r) for r in m.results)
        return
    assert (back.num_dims, back.num_symbols, back.num_results) == (2, 1, 2)
    for ds, ss in box(2, 1, range(-4, 5), range(1, 4)):
        assert back.evaluate(ds, ss) == m.evaluate(ds, ss)


@settings(max_examples=100, deadline=None)
@given(integer_sets(num_dims=2, num_symbols=1))
def test_set_conversion_is_exact(s: IntegerSet) -> None:
    isl_set = set_to_isl(s)
    pieces = sets_from_isl(isl_set)
    for ds, ss in box(2, 1, range(-4, 5), range(1, 3)):
        point = isl.Set.read_from_str(
            isl_context(), f"[s0] -> {{ [{ds[0]}, {ds[1]}] : s0 = {ss[0]} }}"
        )
        inside = not point.intersect(isl_set).is_empty()
        assert inside == s.contains(ds, ss)
        assert any(p.contains(ds, ss) for p in pieces) == inside


@settings(max_examples=60, deadline=None)
@given(exprs(num_dims=1, num_symbols=1, semi_affine=True, negative_divisors=False))
def test_semi_affine_after_binding_symbols(e) -> None:
    m = AffineMap.get(1, 1, [e])
    relation = map_to_isl(m, symbol_values={0: 3})
    assert param_names(relation) == []
    for d in range(-4, 5):
        assert _image(relation, (d,), ()) == [tuple(m.evaluate([d], [3]))]


def test_semi_affine_with_unbound_symbols_is_refused() -> None:
    with pytest.raises(NotPresburgerError, match="bind the symbols"):
        map_to_isl(parse_affine_map("(d0)[s0] -> (d0 * s0)"))
    with pytest.raises(NotPresburgerError, match="divides by a symbol"):
        map_to_isl(parse_affine_map("(d0)[s0] -> (d0 mod s0)"))


def test_seed_maps_through_isl() -> None:
    # #map10 = (d0, d1) -> (floordiv(d0, 8) + floordiv(d1, 128)): two ISL integer divisions.
    m = parse_affine_map("(d0, d1) -> (floordiv(d0, 8) + floordiv(d1, 128))")
    relation = map_to_isl(m)
    assert _image(relation, (17, 300), ()) == [(2 + 2,)]
    assert map_from_isl(relation) == m
    # #imap_slice = (i, j)[M, N, OI, OJ] -> (i + OI, j + OJ): symbols become parameters
    # named after the caller's names, so two maps over the same names align.
    imap_slice = parse_affine_map("(i, j)[M, N, OI, OJ] -> (i + OI, j + OJ) size (M, N)")
    relation = map_to_isl(imap_slice, ["M", "N", "OI", "OJ"])
    assert param_names(relation) == ["M", "N", "OI", "OJ"]
    assert map_from_isl(relation, ["M", "N", "OI", "OJ"]) == AffineMap.get(2, 4, imap_slice.results)


def test_names_and_tuples() -> None:
    m = parse_affine_map("(d0)[s0] -> (d0 + s0)")
    relation = map_to_isl(m, ["N"], in_tuple="S0", out_tuple="A")
    assert str(relation) == "[N] -> { S0[d0] -> A[r0 = N + d0] }"
    s = set_to_isl(parse_integer_set("(d0)[s0] : (s0 - d0 - 1 >= 0, d0 >= 0)"), ["N"], "S0")
    assert str(s) == "[N] -> { S0[d0] : 0 <= d0 < N }"
    assert str(set_space(["i", "j"], ["N"], "S")) == "[N] -> { S[i, j] }"
    assert str(map_space(["i"], ["a"], ["N"], "S", "A")) == "[N] -> { S[i] -> A[a] }"
    with pytest.raises(ValueError, match="distinct"):
        set_space(["i", "i"])


def test_align_params_by_name() -> None:
    a = isl.Set.read_from_str(isl_context(), "[N, M] -> { [i] : i < N + M }")
    b = isl.Set.read_from_str(isl_context(), "[M, K] -> { [i] : i > M - K }")
    a2, b2 = align_params(a, b)
    assert param_names(a2) == param_names(b2) == ["N", "M", "K"]
    assert not a2.intersect(b2).is_empty()


def test_back_conversion_refuses_what_is_not_one_map() -> None:
    with pytest.raises(NotExpressibleError, match="not a function"):
        map_from_isl(isl.Map.read_from_str(isl_context(), "{ [a] -> [b] : 0 <= b <= a }"))
    with pytest.raises(NotExpressibleError, match="piecewise"):
        map_from_isl(
            isl.Map.read_from_str(isl_context(), "{ [a] -> [a] : a >= 0; [a] -> [-a] : a < 0 }")
        )
    with pytest.raises(NotExpressibleError, match="union of 2"):
        set_from_isl(isl.Set.read_from_str(isl_context(), "{ [a] : a < 0 or a > 5 }"))
    with pytest.raises(NotExpressibleError, match="not among the symbols"):
        map_from_isl(isl.Map.read_from_str(isl_context(), "[N] -> { [a] -> [a + N] }"), ["M"])


def test_existentials_become_divisions() -> None:
    s = isl.Set.read_from_str(isl_context(), "{ [i] : exists (e : i = 4e + 1) and 0 <= i < 20 }")
    (back,) = sets_from_isl(s)
    assert [i for i in range(-5, 25) if back.contains([i])] == [1, 5, 9, 13, 17]


def test_inverse_on_image() -> None:
    # The tiled layout of a 64x64 memref with 16x16 tiles: back from (tile, tile, intra, intra).
    tiled = parse_affine_map("(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)")
    inv = inverse_on_image(tiled)
    assert str(inv) == "(d0, d1, d2, d3) -> (d0 * 16 + d2, d1 * 16 + d3)"
    for point in itertools.product(range(-20, 40, 7), repeat=2):
        assert inv.evaluate(tiled.evaluate(point)) == list(point)
    assert (
        str(inverse_on_image(parse_affine_map("(d0) -> (d0 * 3 + 1)")))
        == "(d0) -> ((d0 - 1) floordiv 3)"
    )
    with pytest.raises(NotExpressibleError, match="not one-to-one"):
        inverse_on_image(parse_affine_map("(d0, d1) -> (d0 + d1)"))


def test_expr_to_pw_aff_negative_divisors_follow_python() -> None:
    domain = set_space(["d0"])
    from affine import parse_affine_expr

    e = parse_affine_expr("d0 mod -3 + d0 floordiv -2 + d0 ceildiv -4", 1, 0)
    pa = expr_to_pw_aff(e, domain)
    for d in range(-9, 10):
        point = isl.Set.read_from_str(isl_context(), f"{{ [{d}] }}")
        value = pa.intersect_domain(point).max_val()
        assert int(value.to_python()) == e.evaluate([d])


def test_budget_raises_a_typed_error_and_recovers() -> None:
    text = "[N] -> { [i, j, k] : 0 <= i, j, k < N and i + j + k = N and i mod 3 = j mod 5 }"
    heavy = isl.Set.read_from_str(isl_context(), text)
    with pytest.raises(IslBudgetExceeded, match="exceeded the ISL budget of 10 operations"):
        with budget(10, what="a coalesce"):
            heavy.compute_divs().coalesce().lexmin()
    # The context works again afterwards, with no limit left behind.
    assert isl_context().get_max_operations() == 0
    assert not heavy.is_empty()


def test_budgets_nest() -> None:
    with budget(1000) as ctx:
        assert ctx.get_max_operations() == 1000
        with budget(10**9):
            assert ctx.get_max_operations() == 1000
        assert ctx.get_max_operations() == 1000
    assert isl_context().get_max_operations() == 0


def test_other_isl_errors_pass_through() -> None:
    a = isl.Set.read_from_str(isl_context(), "{ [i] }")
    b = isl.Set.read_from_str(isl_context(), "{ [i, j] }")
    with pytest.raises(isl.Error, match="spaces don't match"), budget():
        a.intersect(b)


def test_empty_and_universe_sets() -> None:
    assert set_to_isl(IntegerSet.empty(1, 0)).is_empty()
    assert set_to_isl(IntegerSet.universe(2, 1)).is_equal(
        isl.Set.read_from_str(isl_context(), "[s0] -> { [d0, d1] }")
    )


def _nested_division(e) -> bool:
    """A floordiv, ceildiv or mod inside the numerator of another one."""
    divisions = ("floordiv", "ceildiv", "mod")
    for sub in e.walk():
        if sub.kind in divisions and any(x.kind in divisions for x in sub.lhs.walk()):
            return True
    return False
