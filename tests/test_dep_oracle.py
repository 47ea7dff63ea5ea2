"""The brute-force oracle's own rules for views: each view op, loaded element by element,
touches the elements of its source that numpy's view of the same array names (or, for
the ops both executors run, the elements the interpreter reads)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from dep_oracle import expected_remarks, trace

import affine
from affine.exec.running import run

# name -> (source type, view op from %A to %v, view shape, numpy's view of the source)
VIEWS: dict[str, tuple[str, str, tuple[int, ...], Callable[[np.ndarray], np.ndarray]]] = {
    "cast": (
        "memref<3x4xf32>",
        "%v = memref.cast %A : memref<3x4xf32> to memref<?x?xf32>",
        (3, 4),
        lambda a: a,
    ),
    "subview": (
        "memref<3x4xf32>",
        "%v = memref.subview %A[1, 1] [2, 2] [1, 2] : memref<3x4xf32> to "
        "memref<2x2xf32, strided<[4, 2], offset: 5>>",
        (2, 2),
        lambda a: a[1:3, 1:4:2],
    ),
    "rank_reducing_subview": (
        "memref<3x4xf32>",
        "%v = memref.subview %A[1, 0] [1, 4] [1, 1] : memref<3x4xf32> to "
        "memref<4xf32, strided<[1], offset: 4>>",
        (4,),
        lambda a: a[1, :],
    ),
    "reinterpret_cast": (
        "memref<12xf32>",
        "%v = memref.reinterpret_cast %A to offset: [1], sizes: [2, 3], strides: [5, 2] : "
        "memref<12xf32> to memref<2x3xf32, strided<[5, 2], offset: 1>>",
        (2, 3),
        lambda a: np.lib.stride_tricks.as_strided(a[1:], (2, 3), (5 * a.itemsize, 2 * a.itemsize)),
    ),
    "expand_shape": (
        "memref<12xf32>",
        "%v = memref.expand_shape %A [[0, 1]] output_shape [3, 4] : memref<12xf32> into "
        "memref<3x4xf32>",
        (3, 4),
        lambda a: a.reshape(3, 4),
    ),
    "collapse_shape": (
        "memref<3x4xf32>",
        "%v = memref.collapse_shape %A [[0, 1]] : memref<3x4xf32> into memref<12xf32>",
        (12,),
        lambda a: a.reshape(12),
    ),
    "transpose": (
        "memref<3x4xf32>",
        "%v = memref.transpose %A (i, j) -> (j, i) : memref<3x4xf32> to "
        "memref<4x3xf32, strided<[1, 4]>>",
        (4, 3),
        lambda a: a.T,
    ),
    "transpose_of_subview": (
        "memref<3x4xf32>",
        "%s = memref.subview %A[0, 1] [3, 2] [1, 1] : memref<3x4xf32> to "
        "memref<3x2xf32, strided<[4, 1], offset: 1>>\n"
        "  %v = memref.transpose %s (i, j) -> (j, i) : memref<3x2xf32, strided<[4, 1], "
        "offset: 1>> to memref<2x3xf32, strided<[1, 4], offset: 1>>",
        (2, 3),
        lambda a: a[:, 1:3].T,
    ),
}


def load_all(source: str, view: str, shape: tuple[int, ...]) -> affine.Module:
    """``@f`` reads every element of the view ``%v`` in row-major order into ``%out``."""
    ivs = [f"%i{k}" for k in range(len(shape))]
    loops = "".join(
        f"{'  ' * k}  affine.for {iv} = 0 to {n} {{\n" for k, (iv, n) in enumerate(zip(ivs, shape))
    )
    closing = "".join(f"{'  ' * k}  }}\n" for k in reversed(range(len(shape))))
    t = view.rsplit(" to ", 1)[-1].rsplit(" into ", 1)[-1]
    linear = " + ".join(f"{iv} * {int(np.prod(shape[k + 1 :]))}" for k, iv in enumerate(ivs))
    inner = "  " * len(shape)
    count = int(np.prod(shape))
    return affine.parse(
        f"""func.func @f(%A: {source}, %out: memref<{count}xf32>) {{
  {view}
{loops}{inner}  %x = affine.load %v[{", ".join(ivs)}] : {t}
{inner}  affine.store %x, %out[{linear}] : memref<{count}xf32>
{closing}  return
}}
"""
    )


def source_shape(module: affine.Module) -> tuple[int, ...]:
    return tuple(module.function("f").regions[0].blocks[0].arguments[0].type.shape)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_each_view_touches_what_numpy_sees(name: str) -> None:
    source, view, shape, numpy_view = VIEWS[name]
    module = load_all(source, view, shape)
    loads = [i for i in trace(module).instances if i.op.name == "affine.load"]
    assert all(i.buffer.argument == 0 and i.width == 4 for i in loads)
    a = np.arange(int(np.prod(source_shape(module))), dtype=np.float64)
    expected = numpy_view(a.reshape(source_shape(module))).reshape(-1)
    assert [i.element // 4 for i in loads] == [int(p) for p in expected]


@pytest.mark.parametrize("name", ["cast", "subview", "reinterpret_cast"])
def test_views_the_interpreter_runs_read_what_the_oracle_says(name: str) -> None:
    source, view, shape, _ = VIEWS[name]
    module = load_all(source, view, shape)
    a = np.arange(int(np.prod(source_shape(module))), dtype=np.float32)
    a = a.reshape(source_shape(module))
    out = np.zeros(int(np.prod(shape)), np.float32)
    run(module, a, out, backend="interp")
    loads = [i for i in trace(module).instances if i.op.name == "affine.load"]
    assert [i.element // 4 for i in loads] == [int(x) for x in out]


def test_a_view_of_other_elements_meets_its_bytes() -> None:
    # f32 elements seen through memref.view of an i8 buffer: the store writes bytes 4-7
    module = affine.parse(
        """func.func @f(%A: memref<16xi8>, %x: f32) {
  %c0 = arith.constant 0 : index
  %v = memref.view %A[%c0][] : memref<16xi8> to memref<4xf32>
  affine.store %x, %v[1] : memref<4xf32>
  %b = affine.load %A[7] : memref<16xi8>
  %c = affine.load %A[8] : memref<16xi8>
  return
}
"""
    )
    remarks = {(i, j, d): v for i, j, d, v in expected_remarks(trace(module))}
    assert remarks[(0, 1, 1)] == "true" and remarks[(0, 2, 1)] == "false"


def test_an_allocation_in_a_loop_is_a_new_buffer_each_time() -> None:
    module = affine.parse(
        """func.func @f(%x: f32) {
  affine.for %i = 0 to 3 {
    %m = memref.alloc() : memref<2xf32>
    affine.store %x, %m[0] : memref<2xf32>
    %y = affine.load %m[0] : memref<2xf32>
  }
  return
}
"""
    )
    tr = trace(module)
    assert len({i.buffer for i in tr.instances}) == 3
    remarks = {(i, j, d): v for i, j, d, v in expected_remarks(tr)}
    assert remarks[(0, 1, 1)] == "false" and remarks[(0, 1, 2)] == "true"
