"""Property tests of the value types: random expressions, maps, sets and types survive
printing and reading (the text is a fixpoint and the value is unchanged)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from affine import (
    AffineMap,
    IntegerSet,
    constant,
    dim,
    parse_affine_map,
    parse_integer_set,
    parse_type,
    symbol,
)
from affine.ir.types import (
    BF16,
    DYNAMIC,
    F16,
    F32,
    F64,
    I1,
    I32,
    I64,
    INDEX,
    ComplexType,
    FunctionType,
    IntegerType,
    MemRefType,
    StridedLayout,
    TensorType,
    TupleType,
    Type,
    VectorType,
)
from affine.math.expr import AffineExpr, AffineExprError

NUM_DIMS, NUM_SYMBOLS = 3, 2


def _combine(children: st.SearchStrategy[AffineExpr]) -> st.SearchStrategy[AffineExpr]:
    def build(op: str, a: AffineExpr, b: AffineExpr, c: int, s: int) -> AffineExpr:
        divisor = constant(abs(c) + 1) if s < 0 else symbol(s % NUM_SYMBOLS)
        try:
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * (constant(c) if s < 0 else symbol(s % NUM_SYMBOLS))
            if op == "neg":
                return -a
            return a.binary(op, divisor)
        except AffineExprError:
            return a

    return st.builds(
        build,
        st.sampled_from(["+", "-", "*", "neg", "floordiv", "ceildiv", "mod"]),
        children,
        children,
        st.integers(-6, 6),
        st.integers(-3, 1),
    )


leaves = st.one_of(
    st.integers(0, NUM_DIMS - 1).map(dim),
    st.integers(0, NUM_SYMBOLS - 1).map(symbol),
    st.integers(-20, 20).map(constant),
)
exprs = st.recursive(leaves, _combine, max_leaves=12)
points = st.tuples(
    st.lists(st.integers(-30, 30), min_size=NUM_DIMS, max_size=NUM_DIMS),
    st.lists(st.integers(1, 9), min_size=NUM_SYMBOLS, max_size=NUM_SYMBOLS),
)


def _map_text(results: list[AffineExpr]) -> str:
    return str(AffineMap.get(NUM_DIMS, NUM_SYMBOLS, results))


@settings(max_examples=400, deadline=None)
@given(st.lists(exprs, min_size=1, max_size=3), points)
def test_map_print_read_keeps_text_and_values(results: list[AffineExpr], point) -> None:
    # Text loses the association of sums (`a + (b + c)` prints as `a + b + c`), so, as in
    # MLIR, the first read may rebuild a different but equal tree; after that, printing
    # is a fixpoint and the value is interned.
    m = AffineMap.get(NUM_DIMS, NUM_SYMBOLS, results)
    again = parse_affine_map(str(m))
    text = str(again)
    assert parse_affine_map(text) is again
    dims_, syms_ = point
    assert again.evaluate(dims_, syms_) == m.evaluate(dims_, syms_)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(exprs, st.booleans()), min_size=1, max_size=4), points)
def test_set_print_read_keeps_text_and_membership(constraints, point) -> None:
    s = IntegerSet.get(
        NUM_DIMS, NUM_SYMBOLS, [c for c, _ in constraints], [e for _, e in constraints]
    )
    again = parse_integer_set(str(s))
    assert parse_integer_set(str(again)) is again
    dims_, syms_ = point
    assert again.contains(dims_, syms_) == s.contains(dims_, syms_)


element_types = st.sampled_from(
    [
        I1,
        I32,
        I64,
        IntegerType(7),
        IntegerType(8, "u"),
        IntegerType(16, "s"),
        F16,
        BF16,
        F32,
        F64,
        INDEX,
    ]
)
dims_list = st.lists(st.one_of(st.integers(0, 64), st.just(DYNAMIC)), max_size=4)


def _memref(shape: list[int], element: Type, kind: int, space: int) -> MemRefType:
    layout = None
    if kind == 1 and shape:
        layout = AffineMap.permutation(list(reversed(range(len(shape)))))
    elif kind == 2:
        layout = StridedLayout(
            [8 * (i + 1) for i in range(len(shape))], offset=DYNAMIC if shape else 0
        )
    return MemRefType(shape, element, layout, space)


scalar_or_vector = st.one_of(
    element_types,
    st.builds(
        lambda s, e: VectorType(s, e),
        st.lists(st.integers(1, 8), min_size=1, max_size=3),
        element_types,
    ),
)
types = st.recursive(
    st.one_of(
        scalar_or_vector,
        st.builds(lambda s, e: TensorType(s, e), st.one_of(st.none(), dims_list), element_types),
        st.builds(_memref, dims_list, scalar_or_vector, st.integers(0, 2), st.integers(0, 3)),
        st.builds(ComplexType, st.sampled_from([F32, F64])),
    ),
    lambda inner: st.one_of(
        st.builds(TupleType, st.lists(inner, max_size=3)),
        st.builds(FunctionType, st.lists(inner, max_size=3), st.lists(inner, max_size=2)),
    ),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(types)
def test_type_print_read_roundtrip(t: Type) -> None:
    assert parse_type(str(t)) == t
