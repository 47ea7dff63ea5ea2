"""The interpreter and the C backend run against each other: on the whole execution corpus
(every public function of tests/corpus/{kernels, deps, affine, transforms, seed} and the
programs of exec_cases.py) and on a generated matrix of every view op both backends run x
access kind x static or dynamic shape, where numpy says independently what each run must
give."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, run_mlir_opt
from dep_oracle import oracle_inputs
from exec_cases import PROGRAMS

import affine
from affine.exec.elements import ExecutionError
from affine.exec.equivalence import compare_arrays
from affine.exec.inputs import deterministic_inputs, function_name, random_inputs
from affine.exec.running import run
from affine.ir.core import Operation

DIRECTORIES = ("kernels", "deps", "affine", "transforms", "seed")

# Functions with dynamic sizes: the sizes of their memref arguments and the values of
# their index arguments (by argument position), chosen so that every access is in bounds.
# Files with an ``oracle-args`` header run with those values (dep_oracle.oracle_inputs).
ARGUMENTS: dict[str, tuple[dict[int, tuple[int, ...]], dict[int, int]]] = {
    "affine/matmul.mlir::matmul": ({0: (7, 5), 1: (5, 6), 2: (7, 6)}, {}),
    "affine/seidel_2d.mlir::seidel_2d": ({0: (9, 9)}, {1: 9, 2: 2}),
    "seed/dropped_layouts.mlir::allocs": ({}, {2: 4}),
    "affine/semi_affine.mlir::semi": ({0: (48,), 2: (12,)}, {1: 3}),
    "affine/tiled_matmul.mlir::tiled": ({0: (40, 40), 1: (40, 40), 2: (40, 40)}, {3: 40}),
    "transforms/tile.mlir::rectangular": ({0: (100, 64), 1: (64, 100)}, {2: 60, 3: 5}),
    "transforms/tile_parametric.mlir::symbolic_and_min_bounds": ({2: (9, 40)}, {3: 9}),
    "transforms/tile_separate.mlir::separate": ({0: (60, 64), 1: (64, 60)}, {2: 60, 3: 5}),
    "seed/for_if.mlir::simple_example": ({0: (5, 5), 1: (5, 5)}, {}),
    "seed/mul_multiply.mlir::multiply": ({0: (100, 8), 1: (8, 50)}, {}),
}
LAYOUT_SYMBOLS = {
    "affine/semi_affine.mlir::semi": {2: (4,)},
    "seed/dropped_layouts.mlir::copy_scale": {1: (4,)},
}

# Functions neither backend runs, with what the interpreter (or building inputs) says.
NOT_RUNNABLE = {
    "affine/imperfect_nest.mlir::imperfect": "'func.call' to @sink, which has no body",
    "seed/arithmetic.mlir::arith": "has type 'vector<4xi32>'; pass it explicitly",
    "seed/core_ops.mlir::core": "has type 'tensor<16xf32>'; pass it explicitly",
    "seed/for_if.mlir::simple_example": "'func.call' to @F1, which has no body",
    "seed/for_if.mlir::reduced_domain_example": "'func.call' to @S1, which has no body",
    "seed/generic_and_types.mlir::generic": "has type 'vector<8x128xf32>'; pass it explicitly",
    "seed/maps_and_alloc.mlir::maps": "takes negative values",
    "seed/memory_ops.mlir::memory": "values of type 'vector<16xf32>' cannot be executed",
    "seed/memref_composition.mlir::memrefs": "out-of-bounds store",
    "seed/mul_multiply.mlir::mul": "has type 'tensor<100x?xf32>'; pass it explicitly",
    # the interpreter returns the allocated memref; the C backend returns only scalars
    "seed/mul_multiply.mlir::multiply": "C backend only returns scalars",
}


def corpus_functions() -> list[tuple[str, Path, str]]:
    """``(key, path, function name)`` of every public function with a body."""
    found = []
    for directory in DIRECTORIES:
        for path in sorted((CORPUS / directory).glob("*.mlir")):
            module = affine.parse(path.read_text(encoding="utf-8"), str(path))
            for func in module.functions():
                if func.properties.get("sym_visibility") is not None or not func.regions[0].blocks:
                    continue
                name = function_name(func)
                found.append((f"{directory}/{path.name}::{name}", path, name))
    return found


FUNCTIONS = corpus_functions()


def inputs_for(key: str, path: Path, func: Operation, seed: int) -> list[Any]:
    text = path.read_text(encoding="utf-8")
    if "oracle-args" in text:
        return oracle_inputs(affine.parse(text, str(path)), text, seed)
    sizes, indices = ARGUMENTS.get(key, ({}, {}))
    values = random_inputs(func, seed, sizes)
    for position, value in indices.items():
        values[position] = value
    return values


def assert_backends_agree(func: Operation, inputs: list[Any], **options: Any) -> None:
    """Both backends on copies of ``inputs``: every argument and result the same (floats
    within the reassociation tolerance of :func:`compare_arrays`)."""
    results = {}
    arguments = {}
    for backend in ("interp", "c"):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]
        results[backend] = run(func, *copies, backend=backend, **options)
        arguments[backend] = copies
    for a, (x, y) in enumerate(zip(arguments["interp"], arguments["c"])):
        if isinstance(x, np.ndarray):
            assert compare_arrays(x, y, a) is None, compare_arrays(x, y, a)
    rx, ry = results["interp"], results["c"]
    rx, ry = (rx, ry) if isinstance(rx, tuple) else ((rx,), (ry,))
    for k, (x, y) in enumerate(zip(rx, ry)):
        mismatch = compare_arrays(np.asarray(x), np.asarray(y), -1 - k)
        assert mismatch is None and np.asarray(x).dtype == np.asarray(y).dtype, mismatch


def test_the_corpus_is_whole() -> None:
    keys = {key for key, _, _ in FUNCTIONS}
    assert len(keys) >= 110
    assert set(ARGUMENTS) <= keys and set(NOT_RUNNABLE) <= keys and set(LAYOUT_SYMBOLS) <= keys


@pytest.mark.parametrize(("key", "path", "name"), FUNCTIONS, ids=[k for k, _, _ in FUNCTIONS])
def test_corpus_function_agrees(key: str, path: Path, name: str) -> None:
    func = affine.parse(path.read_text(encoding="utf-8"), str(path)).function(name)
    options = {"layout_symbols": LAYOUT_SYMBOLS[key]} if key in LAYOUT_SYMBOLS else {}
    if key in NOT_RUNNABLE:
        with pytest.raises(ExecutionError, match=re.escape(NOT_RUNNABLE[key])):
            assert_backends_agree(func, inputs_for(key, path, func, 7), **options)
        return
    assert_backends_agree(func, inputs_for(key, path, func, 7), **options)
    if path.parent.name == "kernels":
        assert_backends_agree(func, deterministic_inputs(func))


# Loops whose loads gcc's loop vectorizer (12.2, from -O2 on) hoisted above a store they depend
# on, as it loads an interleaved group where its first load stands; the toolchain builds
# without it (affine.exec.toolchain.GCC_FLAGS).
HOISTED_LOADS = {
    # a[4i + 3] is what the first store wrote in the iteration before
    "interleaved": """
func.func @f(%A: memref<256xf32>) {
  %h = arith.constant 0.5 : f32
  affine.for %i = 0 to 32 {
    %x = affine.load %A[%i * 4 + 2] : memref<256xf32>
    %y = arith.mulf %x, %h : f32
    affine.store %y, %A[%i * 4 + 7] : memref<256xf32>
    %z = affine.load %A[%i * 4 + 3] : memref<256xf32>
    %w = arith.mulf %z, %h : f32
    affine.store %w, %A[%i * 4 + 8] : memref<256xf32>
  }
  return
}
""",
    # the inner loop, unrolled by gcc, reads row i + 3, which the iteration i - 2 wrote
    "stencil stepping by 2": """
func.func @f(%A: memref<15x15xf32>, %B: memref<15xf32>) {
  %h = arith.constant 0.5 : f32
  affine.for %i = 0 to 5 step 2 {
    affine.for %j = 0 to 5 {
      %a = affine.load %A[%i + 3, %j + 3] : memref<15x15xf32>
      %b = affine.load %B[%i + 4] : memref<15xf32>
      %m = arith.mulf %a, %h : f32
      %s = arith.addf %m, %b : f32
      affine.store %s, %A[%i + 5, %j + 4] : memref<15x15xf32>
    }
  }
  return
}
""",
}


@pytest.mark.parametrize("name", sorted(HOISTED_LOADS))
def test_loads_stay_after_the_stores_they_depend_on(name: str) -> None:
    func = affine.parse(HOISTED_LOADS[name]).functions()[0]
    assert_backends_agree(func, deterministic_inputs(func))
    assert_backends_agree(func, random_inputs(func, seed=3))


# Two sums a row of products, which gcc's SLP vectorizer (12.2, -O3, -march=native) paired
# into one vector and fused with vfmaddsub despite -ffp-contract=off: one ulp off in f64. The
# backends must agree exactly here, without the reassociation tolerance.
PAIRED_SUMS = """
func.func @k(%A: memref<16x64xf64>, %x: memref<64xf64>, %y: memref<16xf64>) {
  affine.for %i = 0 to 8 {
    %y0 = affine.load %y[%i * 2] : memref<16xf64>
    %y1 = affine.load %y[%i * 2 + 1] : memref<16xf64>
    %s:2 = affine.for %j = 1 to affine_map<(d0) -> (d0 + 7)>(%i) iter_args(%a0 = %y0, %a1 = %y1) -> (f64, f64) {
      %u = affine.load %x[%j + 2] : memref<64xf64>
      %v = affine.load %x[%j + 3] : memref<64xf64>
      %w = affine.load %A[%i * 2, %j + 1] : memref<16x64xf64>
      %p = arith.mulf %u, %v : f64
      %q = arith.subf %p, %w : f64
      %n0 = arith.addf %a0, %q : f64
      %b = affine.load %A[%i * 2 + 1, %j + 2] : memref<16x64xf64>
      %c = affine.load %x[%j] : memref<64xf64>
      %d = arith.addf %b, %c : f64
      %e = arith.mulf %d, %u : f64
      %n1 = arith.addf %a1, %e : f64
      affine.yield %n0, %n1 : f64, f64
    }
    affine.store %s#0, %y[%i * 2] : memref<16xf64>
    affine.store %s#1, %y[%i * 2 + 1] : memref<16xf64>
  }
  return
}
"""


@pytest.mark.parametrize("seed", range(8))
def test_paired_sums_of_products_round_as_the_source_says(seed: int) -> None:
    func = affine.parse(PAIRED_SUMS).functions()[0]
    inputs = random_inputs(func, seed=seed)
    results = []
    for backend in ("interp", "c"):
        copies = [a.copy() for a in inputs]
        run(func, *copies, backend=backend)
        results.append(copies[2])
    assert np.array_equal(results[0], results[1]), results[0] - results[1]


# -- the view matrix ----------------------------------------------------------------------------

ROWS, COLS = 6, 8
# Index arguments of every matrix kernel: subview offsets, sizes and steps, the offset and
# row stride of reinterpret_cast. The dynamic forms see the same elements as the static ones.
INDEX_VALUES = {"o0": 1, "o1": 1, "n0": 3, "n1": 4, "s0": 1, "s1": 2, "r": 5, "rs": 8}
SOURCES = {
    "static": "memref<6x8xf32>",
    "dynamic": "memref<?x?xf32>",
    "strided": "memref<6x8xf32, strided<[10, 1], offset: 2>>",  # rows padded to 10
    "dynamic_strided": "memref<?x?xf32, strided<[?, 1], offset: ?>>",  # given row-major
}
ANY_LAYOUT = "strided<[?, ?], offset: ?>"


@dataclass(frozen=True)
class View:
    """A chain of view ops from ``%A``: ``ops(source type)`` gives the MLIR lines and the
    result type, ``elements(i, j)`` the logical index of ``%A`` that element (i, j) is;
    ``row_major_sources_only``: it addresses the buffer, whose positions are the logical
    row-major ones only when the source's rows are not padded."""

    ops: Callable[[str], tuple[list[str], str]]
    elements: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    row_major_sources_only: bool = False


def _cast(target: Callable[[str], str]) -> Callable[[str], tuple[list[str], str]]:
    def ops(source: str) -> tuple[list[str], str]:
        t = target(source)
        return [f"%v = memref.cast %A : {source} to {t}"], t

    return ops


def _dynamic_cast_type(source: str) -> str:
    return "memref<?x?xf32>" if "strided" not in source else f"memref<?x?xf32, {ANY_LAYOUT}>"


def _static_cast_type(source: str) -> str:
    if source == SOURCES["dynamic"]:
        return "memref<6x8xf32>"
    return f"memref<6x8xf32, {ANY_LAYOUT}>"


# Static subview [1, 1] [3, 4] [1, 2] of each source type: its inferred result type.
SUBVIEW_TYPES = {
    SOURCES["static"]: "memref<3x4xf32, strided<[8, 2], offset: 9>>",
    SOURCES["dynamic"]: "memref<3x4xf32, strided<[?, 2], offset: ?>>",
    SOURCES["strided"]: "memref<3x4xf32, strided<[10, 2], offset: 13>>",
    SOURCES["dynamic_strided"]: "memref<3x4xf32, strided<[?, 2], offset: ?>>",
    "memref<?x?xf32>": "memref<3x4xf32, strided<[?, 2], offset: ?>>",
    f"memref<?x?xf32, {ANY_LAYOUT}>": f"memref<3x4xf32, {ANY_LAYOUT}>",
}


def _subview(source: str, name: str = "%v", of: str = "%A") -> tuple[list[str], str]:
    t = SUBVIEW_TYPES[source]
    return [f"{name} = memref.subview {of}[1, 1] [3, 4] [1, 2] : {source} to {t}"], t


def _dynamic_subview(source: str) -> tuple[list[str], str]:
    t = f"memref<?x?xf32, {ANY_LAYOUT}>"
    return [f"%v = memref.subview %A[%o0, %o1] [%n0, %n1] [%s0, %s1] : {source} to {t}"], t


def _reinterpret(source: str) -> tuple[list[str], str]:
    t = "memref<3x4xf32, strided<[8, 2], offset: 5>>"
    return [
        f"%v = memref.reinterpret_cast %A to offset: [5], sizes: [3, 4], strides: [8, 2] : {source} to {t}"
    ], t


def _dynamic_reinterpret(source: str) -> tuple[list[str], str]:
    t = "memref<?x?xf32, strided<[?, 2], offset: ?>>"
    return [
        f"%v = memref.reinterpret_cast %A to offset: [%r], sizes: [%n0, %n1], strides: [%rs, 2] : {source} to {t}"
    ], t


def _cast_of_subview(source: str) -> tuple[list[str], str]:
    lines, t = _subview(source, "%s")
    target = f"memref<?x?xf32, {ANY_LAYOUT}>"
    return [*lines, f"%v = memref.cast %s : {t} to {target}"], target


def _subview_of_cast(source: str) -> tuple[list[str], str]:
    cast = _dynamic_cast_type(source)
    lines, t = _subview(cast, "%v", "%c")
    return [f"%c = memref.cast %A : {source} to {cast}", *lines], t


def _same(i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return i, j


def _window(i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return 1 + i, 1 + 2 * j


def _reinterpreted(i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    position = 5 + 8 * i + 2 * j  # in the row-major buffer of an identity 6x8 source
    return position // COLS, position % COLS


VIEWS = {
    "cast_to_dynamic": View(_cast(_dynamic_cast_type), _same),
    "cast_to_static": View(_cast(_static_cast_type), _same),
    "subview_static": View(_subview, _window),
    "subview_dynamic": View(_dynamic_subview, _window),
    "reinterpret_cast_static": View(_reinterpret, _reinterpreted, row_major_sources_only=True),
    "reinterpret_cast_dynamic": View(
        _dynamic_reinterpret, _reinterpreted, row_major_sources_only=True
    ),
    "cast_of_subview": View(_cast_of_subview, _window),
    "subview_of_cast": View(_subview_of_cast, _window),
}
ACCESSES = {
    "affine": ("affine.load %v[%i, %j] : {t}", "affine.store %y, %v[%i, %j] : {t}"),
    "memref": ("memref.load %v[%i, %j] : {t}", "memref.store %y, %v[%i, %j] : {t}"),
}


def view_kernel(source: str, view: View, access: str) -> str:
    """Copy every element of the view into ``%out`` (at its index in the view) and double it
    in place; loop bounds are the view's ``memref.dim``."""
    lines, t = view.ops(source)
    load, store = (pattern.format(t=t) for pattern in ACCESSES[access])
    indices = ", ".join(f"%{n}: index" for n in INDEX_VALUES)
    body = "\n  ".join(lines)
    return f"""func.func @view(%A: {source}, %out: memref<6x8xf32>, {indices}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  {body}
  %rows = memref.dim %v, %c0 : {t}
  %cols = memref.dim %v, %c1 : {t}
  affine.for %i = 0 to %rows {{
    affine.for %j = 0 to %cols {{
      %x = {load}
      affine.store %x, %out[%i, %j] : memref<6x8xf32>
      %y = arith.mulf %x, %two : f32
      {store}
    }}
  }}
  return
}}
"""


MATRIX = [
    (s, v, a)
    for s in SOURCES
    for v, view in VIEWS.items()
    for a in ACCESSES
    if not (view.row_major_sources_only and s == "strided")
]


def expected_view_results(
    view: View, a: np.ndarray, out: np.ndarray, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """What the kernel leaves in ``%A`` and ``%out``, by numpy indexing."""
    i, j = np.indices(shape)
    rows, cols = view.elements(i, j)
    new_a, new_out = a.copy(), out.copy()
    new_out[: shape[0], : shape[1]] = a[rows, cols]
    new_a[rows, cols] = 2 * a[rows, cols]
    return new_a, new_out


@pytest.mark.parametrize(("source", "view", "access"), MATRIX, ids=["-".join(c) for c in MATRIX])
@pytest.mark.parametrize("backend", ["interp", "c"])
def test_view_matrix(source: str, view: str, access: str, backend: str) -> None:
    module = affine.parse(view_kernel(SOURCES[source], VIEWS[view], access), f"{view}.mlir")
    rng = np.random.default_rng(3)
    a = rng.integers(0, 100, (ROWS, COLS)).astype(np.float32)
    out = np.full((ROWS, COLS), -1.0, np.float32)
    shape = (ROWS, COLS) if view.startswith("cast_to") else (3, 4)
    expected_a, expected_out = expected_view_results(VIEWS[view], a, out, shape)
    run(module, a, out, *INDEX_VALUES.values(), backend=backend)
    assert np.array_equal(a, expected_a)
    assert np.array_equal(out, expected_out)


@pytest.mark.mlir
def test_view_matrix_is_valid_mlir(mlir_opt: str) -> None:
    texts = [view_kernel(SOURCES[s], VIEWS[v], a) for s, v, a in MATRIX]
    result = run_mlir_opt(mlir_opt, "\n// -----\n".join(texts), "--split-input-file")
    assert result.returncode == 0, result.stderr[:2000]


# -- regressions --------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["interp", "c"])
def test_affine_load_through_a_cast_to_dynamic_sizes(backend: str) -> None:
    # The C backend took the source's static row stride for the cast's '?' stride and
    # failed with an IndexError while emitting the load.
    module = affine.parse(
        """
func.func @f(%A: memref<4x4xf32>) -> f32 {
  %d = memref.cast %A : memref<4x4xf32> to memref<?x?xf32>
  %v = affine.load %d[1, 2] : memref<?x?xf32>
  return %v : f32
}
"""
    )
    assert run(module, np.arange(16, dtype=np.float32).reshape(4, 4), backend=backend) == 6.0


@pytest.mark.parametrize(
    "layout",
    ["(d0 floordiv s0, d1, d0 mod s0)", "(d0 floordiv s0, d0 mod s0, d1)", "(d0 * s0 + d1)"],
)
@pytest.mark.parametrize("backend", ["interp", "c"])
def test_allocation_with_run_time_extents(layout: str, backend: str) -> None:
    # Layouts whose physical extents depend on a dynamic size and a layout symbol: the C
    # backend refused them while the interpreter ran them.
    module = affine.parse(
        """
#tiles = affine_map<(d0, d1)[s0] -> LAYOUT>
func.func @f(%A: memref<?x5xf32>, %n: index, %t: index) {
  %T = memref.alloc(%n)[%t] : memref<?x5xf32, #tiles>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 5 {
      %v = affine.load %A[%i, %j] : memref<?x5xf32>
      affine.store %v, %T[%i, %j] : memref<?x5xf32, #tiles>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 5 {
      %v = affine.load %T[%n - %i - 1, %j] : memref<?x5xf32, #tiles>
      affine.store %v, %A[%i, %j] : memref<?x5xf32>
    }
  }
  return
}
""".replace("LAYOUT", layout)
    )
    a = np.arange(35, dtype=np.float32).reshape(7, 5)
    run(module, a, 7, 6, backend=backend)
    assert np.array_equal(a, np.arange(35, dtype=np.float32).reshape(7, 5)[::-1])


@pytest.mark.parametrize("backend", ["interp", "c"])
def test_a_layout_with_negative_values_fails_the_run(backend: str) -> None:
    module = affine.parse(
        """
func.func @f(%A: memref<4xf32>, %n: index, %t: index) {
  %T = memref.alloc(%n)[%t] : memref<?xf32, affine_map<(d0)[s0] -> (d0 - s0)>>
  affine.for %i = 0 to %n {
    %v = affine.load %A[%i] : memref<4xf32>
    affine.store %v, %T[%i] : memref<?xf32, affine_map<(d0)[s0] -> (d0 - s0)>>
  }
  return
}
"""
    )
    a = np.ones(4, np.float32)
    run(module, a, 4, 0, backend=backend)
    with pytest.raises(ExecutionError, match=r"layout map result #0 .* takes negative values"):
        run(module, a, 4, 2, backend=backend)


def _fresh(values: list[Any]) -> list[Any]:
    return [v.copy() if isinstance(v, np.ndarray) else v for v in values]


PROGRAM_INPUTS: dict[str, Callable[[], tuple[list[Any], dict[str, Any]]]] = {
    "dma_affine": lambda: (
        [np.arange(32, dtype=np.float32).reshape(4, 8), np.zeros(16, np.float32)],
        {},
    ),
    "dma_memref": lambda: (
        [np.arange(32, dtype=np.float32).reshape(4, 8), np.zeros(16, np.float32)],
        {},
    ),
    "dma_seed": lambda: (
        [np.arange(32, dtype=np.float32).reshape(4, 8), np.zeros(16, np.float32)],
        {},
    ),
    "strided_dma": lambda: (
        [np.arange(64, dtype=np.float32).reshape(8, 8), np.zeros((2, 4), np.float32)],
        {},
    ),
    "factorial": lambda: ([21], {}),
    "collatz": lambda: ([27], {}),
    "absdiff": lambda: ([3, 10], {}),
    "execute_region": lambda: ([np.arange(8, dtype=np.float32), 5], {}),
    "dynamic_copy": lambda: ([np.random.default_rng(0).random((5, 3)), np.zeros((5, 3))], {}),
    "layout_symbols": lambda: (
        [np.arange(12, dtype=np.float32).reshape(3, 4), np.zeros(1, np.float32)],
        {"layout_symbols": {0: (6,)}},
    ),
    "casts": lambda: ([np.arange(16, dtype=np.float32).reshape(4, 4)], {}),
    "branch_alloc": lambda: ([np.arange(8, dtype=np.float32) + 1, 5], {}),
    "subview": lambda: ([np.arange(64, dtype=np.float32).reshape(8, 8), 1], {}),
    "reinterpret_cast": lambda: ([np.arange(32, dtype=np.float32), 3], {}),
    "mutual_recursion": lambda: ([7], {}),
    "f32_sum": lambda: ([np.full(1000, 0.1, dtype=np.float32)], {}),
}


@pytest.mark.parametrize("name", sorted(PROGRAM_INPUTS))
def test_program_agrees_with_the_interpreter(name: str) -> None:
    module = affine.parse(PROGRAMS[name])
    args, kwargs = PROGRAM_INPUTS[name]()
    expected_args = _fresh(args)
    expected = run(module, *expected_args, backend="interp", **kwargs)
    got = run(module, *args, backend="c", **kwargs)
    assert type(got) is type(expected) and np.array_equal(np.asarray(got), np.asarray(expected))
    for a, b in zip(expected_args, args):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b)
