"""Expressions, maps and sets are interned weakly: equal values are one object while one is
alive, and values nobody holds are freed."""

from __future__ import annotations

import gc

from affine import AffineMap, IntegerSet, dim, symbol
from affine.math.interning import InternTable


def test_equal_values_are_one_object() -> None:
    e = dim(0) * 3 + symbol(1)
    assert e is dim(0) * 3 + symbol(1)
    assert AffineMap.get(2, 2, [e]) is AffineMap.get(2, 2, [dim(0) * 3 + symbol(1)])
    assert IntegerSet.get(2, 2, [e], [False]) is IntegerSet.get(2, 2, [e], [False])


def test_values_nobody_holds_are_freed() -> None:
    class Value:
        pass

    table: InternTable[Value] = InternTable()
    kept = table.add(("kept",), Value())
    table.add(("dropped",), Value())
    gc.collect()
    assert table.get(("kept",)) is kept
    assert table.get(("dropped",)) is None
    assert len(table) == 1
