"""``--affine-register-tile``: gemm's reduction loop becomes a vector FMA chain with its
accumulators in ``iter_args``; every corpus kernel, through the register tile alone and
after our cache tiling, computes what the original computes (interpreter and C backend)
and mlir-opt 22 accepts every output; a band whose legality cannot be proved is left alone
with a remark that names the dependence."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, corpus_kernel, run_mlir_opt

import affine
import transforms
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module, Operation
from affine.ir.types import VectorType
from affine.ops import ForOp
from affine.syntax.printer import print_module
from transforms import registry
from transforms.machine import machine_from_options
from transforms.register_tiling import RegisterTile, plan_register_tile, register_tile_function
from transforms.registry import PassContext

KERNELS = [
    path
    for path in sorted((CORPUS / "kernels").glob("*.mlir"))
    if "oracle-args" not in path.read_text() and "dma" not in path.read_text()
]

# Pipelines of (pass, options): the register tile alone, after the cache model's tiling,
# and after small tiles whose partial tiles have min bounds.
PIPELINES = {
    "regtile": [("affine-register-tile", "")],
    "regtile-256": [("affine-register-tile", "vector-bits=256 registers=16")],
    "tile+regtile": [("affine-loop-tile", ""), ("affine-register-tile", "")],
    "tile7+regtile": [
        ("affine-loop-tile", "tile-size=7"),
        ("affine-register-tile", "vector-bits=128"),
    ],
    "regtile+rotate": [("affine-register-tile", "vector-bits=128"), ("affine-rotate-loads", "")],
}

# Kernels whose C-backend check runs in the fast suite (all of them run when slow).
C_KERNELS = {"gemm", "two_mm", "syrk", "mvt", "atax", "jacobi_2d", "trmm", "min_max_bounds"}


def run_pipeline(module: Module, pipeline: list[tuple[str, str]]) -> tuple[Module, list[str]]:
    remarks: list[str] = []
    for name, options in pipeline:
        entry = registry.lookup(name)
        assert entry is not None, name
        context = PassContext(print_op_on_diagnostic=False)
        module = registry.parse_options(entry.load(), options).run(module, context)
        remarks += [d.render() for d in context.diagnostics]
    return module, remarks


def parse_kernel(name: str) -> Module:
    path = CORPUS / "kernels" / f"{name}.mlir"
    return affine.parse(path.read_text(), str(path))


def assert_equivalent(path: Path, pipeline: str, backend: str) -> None:
    module = affine.parse(path.read_text(), str(path))
    result, _ = run_pipeline(module, PIPELINES[pipeline])
    text = print_module(result)
    assert print_module(affine.parse(text, "<result>")) == text
    for f, g in zip(module.functions(), result.functions()):
        if f.properties.get("sym_visibility") is not None:
            continue
        outcome = check_equivalent(f, g, backend=backend)
        assert outcome, (pipeline, backend, text, outcome)


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_every_kernel_computes_the_same_in_the_interpreter(path: Path, pipeline: str) -> None:
    assert_equivalent(path, pipeline, "interp")


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=() if p.stem in C_KERNELS else pytest.mark.slow, id=p.stem)
        for p in KERNELS
    ],
)
def test_every_kernel_computes_the_same_in_c(path: Path, pipeline: str) -> None:
    assert_equivalent(path, pipeline, "c")


@pytest.mark.mlir
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_mlir_opt_accepts_every_output(mlir_opt: str, pipeline: str) -> None:
    outputs = [
        print_module(run_pipeline(affine.parse(p.read_text(), str(p)), PIPELINES[pipeline])[0])
        for p in KERNELS
    ]
    check = run_mlir_opt(mlir_opt, "\n// -----\n".join(outputs), "--split-input-file")
    assert check.returncode == 0, check.stderr[:2000]


def loops_with_vector_accumulators(module: Module) -> list[Operation]:
    return [
        op
        for op in module.walk()
        if op.name == "affine.for"
        and op.results
        and all(isinstance(r.type, VectorType) for r in op.results)
    ]


def test_gemm_reduction_loop_is_a_vector_fma_chain_on_accumulators() -> None:
    result = transforms.register_tile(parse_kernel("gemm"), vector_bits=512, registers=32)
    loops = loops_with_vector_accumulators(result.module)
    assert loops, print_module(result.module)
    main = loops[0]  # full tiles: 5 rows of one 16-lane vector (the 24 columns hold one)
    f = ForOp(main)
    accumulators = f.body.arguments[1:]
    assert [r.type for r in main.results] == [
        VectorType((16,), main.results[0].type.element_type)
    ] * 5  # type: ignore[attr-defined]
    fmas = [op for op in f.body.operations if op.name == "vector.fma"]
    assert len(fmas) == 5
    assert [fma.operands[2] for fma in fmas] == list(accumulators)
    assert list(f.yield_op.operands) == [fma.results[0] for fma in fmas]
    # One row of B loaded once, shared by the five FMAs; A's values broadcast.
    shared = {fma.operands[1] for fma in fmas}
    assert len(shared) == 1 and shared.pop().owner_op.name == "affine.vector_load"  # type: ignore[union-attr]
    assert {fma.operands[0].owner_op.name for fma in fmas} == {"vector.broadcast"}  # type: ignore[union-attr]
    # Nothing else in the loop touches C: the accumulators are loaded before, stored after.
    c_arg = result.module.functions()[0].regions[0].blocks[0].arguments[0]
    assert not [op for op in main.walk() if c_arg in op.operands]
    after = main.parent.operations[main.parent.index_of(main) + 1 :]  # type: ignore[union-attr]
    stores = [op for op in after if op.name == "affine.vector_store"]
    assert [s.operands[0] for s in stores] == list(main.results)
    assert all(s.operands[1] is c_arg for s in stores)


def test_gemm_tail_columns_use_narrower_vectors() -> None:
    result = transforms.register_tile(parse_kernel("gemm"), vector_bits=512, registers=32)
    widths = {
        r.type.shape[0]  # type: ignore[attr-defined]
        for loop in loops_with_vector_accumulators(result.module)
        for r in loop.results
    }
    assert widths == {16, 8}  # 24 columns: one full vector of 16 and a tail of 8


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("seidel_2d", "it would reverse the RAW dependence"),
        ("floyd_warshall", "it would reverse the RAW dependence"),
    ],
)
def test_illegal_register_tiles_are_refused_with_the_dependence(source: str, expected: str) -> None:
    module = parse_kernel(source)
    result = transforms.register_tile(module, vector_bits=128)
    assert print_module(result.module) == print_module(module)
    assert any(expected in remark for remark in result.remarks), result.remarks


HELD_C_READ_IN_LOOP = """
func.func @held(%C: memref<8x8xf32>, %A: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xf32>
        %b = affine.load %C[%k, %j] : memref<8x8xf32>
        %p = arith.mulf %a, %b : f32
        %c = affine.load %C[%i, %j] : memref<8x8xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}
"""


def test_a_reduction_reading_the_accumulators_elsewhere_is_refused() -> None:
    # C[i][j] would be held across k while C[k][j] reads it back at k = i: the store at
    # (i, j, k) feeds the load at (i + 1, j, i), which the tile of rows would run first.
    module = affine.parse(HELD_C_READ_IN_LOOP, "held.mlir")
    result = transforms.register_tile(module, vector_bits=128)
    assert print_module(result.module) == print_module(module)
    assert len(result.remarks) == 1
    assert (
        "held.mlir:3:3: remark: loop band not register-tiled: it would reverse the RAW "
        "dependence from affine.store at held.mlir:11:9 to affine.load at held.mlir:7:14 on %C "
        "with distance (1, 0, -1)"
    ) in result.remarks[0]


SCALED_MATMUL = """
func.func @matmul(%C: memref<20x24xf32>, %A: memref<20x28xf32>, %B: memref<28x24xf32>) {
  %alpha = arith.constant 1.5 : f32
  affine.for %i = 0 to 20 {
    affine.for %k = 0 to 28 {
      affine.for %j = 0 to 24 {
        %a = affine.load %A[%i, %k] : memref<20x28xf32>
        %aa = arith.mulf %alpha, %a : f32
        %b = affine.load %B[%k, %j] : memref<28x24xf32>
        %p = arith.mulf %aa, %b : f32
        %c = affine.load %C[%i, %j] : memref<20x24xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<20x24xf32>
      }
    }
  }
  return
}
"""


def test_cache_tiles_shape_the_register_tile_and_its_packed_operands() -> None:
    # Cache tiles of 16 rows: 4 x 6 tiles leave no rows over (5 x 5 would leave one); the
    # reduction loop of at most 8 iterations (a min bound) packs alpha * A into 8 x 4.
    module = affine.parse(SCALED_MATMUL, "matmul.mlir")
    tiled = transforms.tile(module, sizes=(16, 8, 24)).module
    result = transforms.register_tile(tiled, vector_bits=128, registers=32)
    text = print_module(result.module)
    assert "memref.alloca() : memref<8x4xf32>" in text, text
    widths = [len(loop.results) for loop in loops_with_vector_accumulators(result.module)]
    assert widths and max(widths) == 24, text  # 4 rows x 6 vectors of 4 lanes
    for backend in ("interp", "c"):
        outcome = check_equivalent(
            module.functions()[0], result.module.functions()[0], backend=backend
        )
        assert outcome, outcome


DOITGEN_S_OUTSIDE = """
func.func @doitgen(%A: memref<10x8x12xf32>, %C4: memref<12x12xf32>, %sum: memref<12xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %r = 0 to 10 {
    affine.for %q = 0 to 8 {
      affine.for %p = 0 to 12 {
        affine.store %zero, %sum[%p] : memref<12xf32>
      }
      affine.for %s = 0 to 12 {
        affine.for %p = 0 to 12 {
          %a = affine.load %A[%r, %q, %s] : memref<10x8x12xf32>
          %c = affine.load %C4[%s, %p] : memref<12x12xf32>
          %m = arith.mulf %a, %c : f32
          %t = affine.load %sum[%p] : memref<12xf32>
          %n = arith.addf %t, %m : f32
          affine.store %n, %sum[%p] : memref<12xf32>
        }
      }
      affine.for %p = 0 to 12 {
        %t = affine.load %sum[%p] : memref<12xf32>
        affine.store %t, %A[%r, %q, %p] : memref<10x8x12xf32>
      }
    }
  }
  return
}
"""


# a max-plus chain over a triangle: one accumulator C[j] along k, no loop along which every
# access is contiguous, and the rows j bound k: a tile of the reduction alone
SCALAR_CHAIN = """
func.func @chain(%A: memref<24x24x{t}>, %B: memref<24x24x{t}>, %C: memref<24x{t}>) {{
  affine.for %j = 0 to 24 {{
    affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) {{
      %c = affine.load %C[%j] : memref<24x{t}>
      %a = affine.load %A[%j, %k] : memref<24x24x{t}>
      %b = affine.load %B[%k, %j] : memref<24x24x{t}>
      %s = arith.{add} %a, %b : {t}
      %m = arith.{max} %c, %s : {t}
      affine.store %m, %C[%j] : memref<24x{t}>
    }}
  }}
  return
}}
"""


def _tiles_and_objections(
    name: str, text: str | None = None, cache: int | None = None
) -> list[tuple[str, str | None, bool]]:
    """Per band of corpus kernel ``name`` that :func:`register_tile_function` finds a legal
    tile for (imperfect nests distributed): the tile, what :func:`tile_pays` objects, and
    whether :func:`fma_pays`."""
    from transforms.machine import detect
    from transforms.register_tiling import (
        distribute_for_register_tiles,
        fma_pays,
        register_tile_function,
        tile_pays,
    )

    text = text if text is not None else (CORPUS / "kernels" / f"{name}.mlir").read_text()
    module = affine.parse(text, f"{name}.mlir")
    found = []

    def pays(band, plan):
        found.append((plan.describe(), tile_pays(band, plan, cache, cache), fma_pays(plan)))
        return found[-1][1]

    function, machine = module.functions()[0], detect().override(vector_bits=512)
    distribute_for_register_tiles(
        function, machine, lambda band, plan: tile_pays(band, plan, cache)
    )
    register_tile_function(
        function, machine, PassContext(print_op_on_diagnostic=False), distribute=False, pays=pays
    )
    return found


def test_which_register_tiles_pay() -> None:
    scale, product = _tiles_and_objections("gemm")
    assert scale[1] == (
        "no accumulator to hold, not enough loads shared between the jammed rows and no "
        "overlapping loads along the vector loop"
    )
    assert product[1:] == (None, True)  # B[k][j] is shared by the rows of C
    deriche = _tiles_and_objections("deriche")
    assert len(deriche) == 2 and all(pays == scale[1] for _, pays, _ in deriche)
    stencil = _tiles_and_objections("jacobi_2d")
    assert [pays for _, pays, _ in stencil] == [None, None]  # rows share 3 of 5 loads
    # heat-3d's rows share 3 of 7 loads, too few; its loads of A[i][j][k - 1..k + 1]
    # overlap along k, which rotated loads read once
    heat = _tiles_and_objections("heat_3d")
    assert heat and all(pays is None for _, pays, _ in heat)
    # gramschmidt's j loop distributes (the dependences between its parts are carried by
    # k, around it): R[k][j] += Q[i][k] * A[i][j] becomes vectors of R[k][j..] held across
    # i (9.3x measured), and the update of A jams rows with nothing to share
    tiles = _tiles_and_objections("gramschmidt")
    assert [pays for _, pays, _ in tiles] == [None, scale[1]], tiles
    assert tiles[0][0].startswith("8 x 8 lanes of affine.for at gramschmidt.mlir:30:5")
    # doitgen with s outside p: the reduction s moved innermost reads C4[s][p] by rows,
    # again for every r and q; that pays where C4 (576 bytes) fits in half the cache
    (doitgen,) = _tiles_and_objections("doitgen_sp", DOITGEN_S_OUTSIDE)
    assert doitgen[1] is None, doitgen
    assert _tiles_and_objections("doitgen_sp", DOITGEN_S_OUTSIDE, cache=1024)[0][1] == (
        "the reduction affine.for at doitgen_sp.mlir:9:7 innermost would read "
        "affine.load at doitgen_sp.mlir:12:16 by rows with no reuse"
    )
    rows_sum, columns_sum = _tiles_and_objections("atax")
    assert rows_sum[1:] == (None, False)  # scalar sums of rows: two roundings kept
    # atax's A^T x: the reduction i walks A's rows; at the corpus' size the lines a group
    # of vectors reads over all of i fit in half of L1 and serve the next group, with
    # caches as small against A as at LARGE sizes they do not
    assert columns_sum[1] is None
    assert _tiles_and_objections("atax", cache=1024)[1][1] == (
        "the reduction affine.for at atax.mlir:8:3 innermost would read "
        "affine.load at atax.mlir:20:12 by rows with no reuse"
    )
    # a convolution's filter rows: 5 of them per group of vectors, read again by the next
    (conv,) = _tiles_and_objections("conv2d")
    assert conv[1] is None and "reduction" in conv[0], conv
    # nussinov's table[i][j] = max(table[i][j], table[i][k] + table[k + 1][j]) over k: one
    # integer accumulator, whose chain through memory (a store, then a load of it) is
    # several times the one-cycle max: held in a register it ran 1.26-1.28x
    *_, chain = _tiles_and_objections("nussinov")
    assert chain[0].startswith("reduction affine.for at nussinov.mlir:36:7") and chain[1] is None
    for kind, max_op, add_op, pays in (
        ("i32", "maxsi", "addi", None),
        (
            "f32",
            "maximumf",
            "addf",
            "one scalar accumulator: a single dependence chain, as in the original",
        ),
        ("index", "maxsi", "addi", None),
    ):
        (chain,) = _tiles_and_objections(
            "chain", SCALAR_CHAIN.format(t=kind, max=max_op, add=add_op)
        )
        assert chain[0].startswith("reduction") and chain[1] == pays, (kind, chain)


def test_no_vector_runs_across_a_permuted_layout() -> None:
    # A[i][j] of a transposed memref is not contiguous along j in memory: vector.load
    # refuses such a memref, so the loop is not vectorised
    text = """
    func.func @f(%A: memref<8x16xf32, affine_map<(d0, d1) -> (d1, d0)>>, %B: memref<8x16xf32>) {
      affine.for %i = 0 to 8 {
        affine.for %j = 0 to 16 {
          %v = affine.load %A[%i, %j] : memref<8x16xf32, affine_map<(d0, d1) -> (d1, d0)>>
          affine.store %v, %B[%i, %j] : memref<8x16xf32>
        }
      }
      return
    }
    """
    module = affine.parse(text, "permuted.mlir")
    result = transforms.register_tile(module)
    assert "vector" not in affine.print_module(result.module)
    assert any("not contiguous in memory" in r for r in result.remarks), result.remarks


def _first_plan(name: str, registers: int, bits: int = 256):
    """The register tile plan of the first innermost band of corpus kernel ``name`` on a
    machine of ``registers`` registers of ``bits`` bits."""
    from transforms.machine import FALLBACK
    from transforms.register_tiling import innermost_bands, plan_register_tile

    module = parse_kernel(name)
    band = innermost_bands(module.functions()[0])[0]
    machine = FALLBACK.override(vector_bits=bits, vector_registers=registers)
    return plan_register_tile(band, machine)


# (kernel, vector bits, registers, rows). With 512-bit vectors loads are rotated: per row
# one result; loaded rows counted once however many jammed rows read them, a row whose
# loads overlap along the vector loop twice (loaded, carried), one register of constants.
# jacobi-2d: rows i-1 .. i+R of A, the R middle ones overlapping: 3R + 3. heat-3d, rows
# along j: the centre plane's j-1 .. j+R (R overlapping along k), planes i-1 and i+1 R
# each: 5R + 3. With 256-bit vectors (not rotated), rows that load fewer than two rows
# each hold only the rows loaded and two more: jacobi-2d R + 4 from 3 rows on (1 row: 6,
# 2 rows: 9 by the count above); heat-3d loads 3R + 2 rows, counted as above.
ROWS_IN_REGISTERS = [
    ("jacobi_2d", 512, 16, 4),  # 15 of 16
    ("jacobi_2d", 512, 32, 8),  # at most 8
    ("heat_3d", 512, 16, 2),  # 13 of 16; 3 rows need 18
    ("heat_3d", 512, 32, 5),  # 28 of 32; 6 rows need 33
    ("jacobi_2d", 256, 16, 8),  # 12 of 16
    ("jacobi_2d", 256, 8, 4),  # 8 of 8; 5 rows need 9
    ("jacobi_2d", 256, 5, 1),  # 2 rows need 9, 3 rows 7
    ("heat_3d", 256, 16, 2),
]


@pytest.mark.parametrize(("name", "bits", "registers", "rows"), ROWS_IN_REGISTERS)
def test_stencil_rows_fit_in_the_registers(name: str, bits: int, registers: int, rows: int) -> None:
    plan = _first_plan(name, registers, bits)
    assert plan.reduction is None and plan.row_factor == rows, plan.describe()


# (kernel, N, L1 ways, rows): the rows a tile loads and stores stream through L1 side by
# side, and rows 4 KiB apart (1024 floats) fall into the same set of an L1 of 4 KiB a way
# (32 KiB over 8 ways, 48 KiB over 12): no more rows are jammed than put as many lines
# into one set as it has ways. jacobi-2d's R rows load R + 2 rows of A and store R of B:
# 2R + 2 lines. heat-3d's load R + 2 rows of the plane, R of each plane beside it and
# store R: 4R + 2 (its planes are 4 MiB apart). Rows of 1000 floats (4000 bytes) move by
# 62.5 lines a row, into other sets: the registers decide, as above; rows of 2 KiB use
# two sets.
ROWS_IN_L1_SETS = [
    ("jacobi_2d", 1024, 8, 3),  # 8 of 8 ways
    ("jacobi_2d", 1024, 12, 5),  # 12 of 12
    ("jacobi_2d", 1024, 16, 7),  # 16 of 16
    ("jacobi_2d", 1000, 8, 8),
    ("heat_3d", 1024, 8, 1),  # 6 of 8; 2 rows put 10 lines into a set
    ("heat_3d", 1024, 12, 2),  # 10 of 12
    ("heat_3d", 512, 8, 3),
    ("heat_3d", 1000, 8, 5),
]


@pytest.mark.parametrize(("name", "n", "ways", "rows"), ROWS_IN_L1_SETS)
def test_stencil_rows_fit_in_the_l1_sets(name: str, n: int, ways: int, rows: int) -> None:
    from transforms.machine import FALLBACK
    from transforms.register_tiling import innermost_bands

    band = innermost_bands(corpus_kernel(name, {"N": n, "T": 2}).functions()[0])[0]
    machine = FALLBACK.override(vector_bits=512, vector_registers=32, l1=ways * 4096, l1_ways=ways)
    plan = plan_register_tile(band, machine)
    assert plan.reduction is None and plan.row_factor == rows, plan.describe()


def test_cache_tiles_go_beneath_a_matrix_product_s_register_tile_where_they_pay() -> None:
    from transforms.machine import FALLBACK
    from transforms.register_tiling import (
        cache_tiles_beneath,
        innermost_bands,
        plan_register_tile,
    )

    # gemm's k-j band (after distribution): B[k][j] (2.6 KiB) is read again by every group
    # of rows; with an L2 of 4 KiB it takes more than half of it
    module = parse_kernel("gemm")
    tiled = transforms.register_tile(module, vector_bits=256, cache_tiles=True, l2=4)
    text = print_module(tiled.module)
    assert "cache tiles" not in text  # remarks are not code
    product = [op for op in tiled.module.functions()[0].walk() if op.name == "affine.for"]
    product = [op for op in product if op.parent_op.name == "func.func"][-1]
    steps = [ForOp(op).step for op in product.walk() if op.name == "affine.for"]
    assert steps[:3] == [8, 8, 4], text  # tiles of 8 i (2 groups of 4 rows) by 8 k
    for backend in ("interp", "c"):
        outcome = check_equivalent(module, tiled.module, backend=backend)
        assert outcome, outcome
    # where L2 holds it, and for a matrix-vector band (no rows of accumulators), none
    small, large = (FALLBACK.override(vector_bits=256, l2=size) for size in (4096, 1 << 20))
    matmul = affine.parse(SCALED_MATMUL, "matmul.mlir")
    for machine, module, why in (
        (large, matmul, "every array read again by each group of rows fits in half of L2"),
        (small, parse_kernel("mvt"), "not a tile of rows of vector accumulators"),
    ):
        band = innermost_bands(module.functions()[0])[0]
        assert cache_tiles_beneath(band, plan_register_tile(band, machine), machine) == why


CONV_5X5 = """
func.func @conv5(%In: memref<36x36xf32>, %K: memref<5x5xf32>, %Out: memref<32x32xf32>) {
  affine.for %y = 0 to 32 {
    affine.for %x = 0 to 32 {
      affine.for %r = 0 to 5 {
        affine.for %s = 0 to 5 {
          %i = affine.load %In[%y + %r, %x + %s] : memref<36x36xf32>
          %k = affine.load %K[%r, %s] : memref<5x5xf32>
          %o = affine.load %Out[%y, %x] : memref<32x32xf32>
          %p = arith.mulf %i, %k : f32
          %q = arith.addf %o, %p : f32
          affine.store %q, %Out[%y, %x] : memref<32x32xf32>
        }
      }
    }
  }
  return
}
"""
CONV_CHANNELS = """
func.func @conv(%In: memref<4x10x34xf32>, %W: memref<8x4x3x3xf32>, %Out: memref<8x8x32xf32>) {
  affine.for %f = 0 to 8 {
    affine.for %c = 0 to 4 {
      affine.for %y = 0 to 8 {
        affine.for %x = 0 to 32 {
          affine.for %r = 0 to 3 {
            affine.for %s = 0 to 3 {
              %i = affine.load %In[%c, %y + %r, %x + %s] : memref<4x10x34xf32>
              %w = affine.load %W[%f, %c, %r, %s] : memref<8x4x3x3xf32>
              %o = affine.load %Out[%f, %y, %x] : memref<8x8x32xf32>
              %p = arith.mulf %i, %w : f32
              %q = arith.addf %o, %p : f32
              affine.store %q, %Out[%f, %y, %x] : memref<8x8x32xf32>
            }
          }
        }
      }
    }
  }
  return
}
"""


MATMUL = """
func.func @mm(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<32x32xf32>
        %b = affine.load %B[%k, %j] : memref<32x32xf32>
        %c = affine.load %C[%i, %j] : memref<32x32xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}
"""


# (kernel, registers of 512 bits, rows of one vector, or None for the matrix product's
# shape). A 5 x 5 convolution with s unrolled and r the reduction: In[y + r][x + s] moves
# with the rows and the vectors and no two loads are neighbouring rows, so the rows share
# nothing and need only independent chains: 32 registers less 5 x 5 hoisted weights and
# two in flight leave 5 rows; of 16, fewer than two. Over channels (r and s unrolled, c
# the reduction) In[c][y + r] for r = 0, 1, 2 are neighbouring rows, shared; a matrix
# product's B[k][j] does not move with the rows.
RESERVED_ROWS = [
    (CONV_5X5, 32, 5),
    (CONV_5X5, 16, None),
    (CONV_CHANNELS, 32, None),
    (MATMUL, 32, None),
]


@pytest.mark.parametrize(
    ("source", "registers", "rows"),
    RESERVED_ROWS,
    ids=["5x5-32", "5x5-16", "channels-32", "matmul-32"],
)
def test_a_convolution_s_rows_sharing_no_load_leave_registers_to_its_weights(
    source: str, registers: int, rows: int | None
) -> None:
    from transforms.machine import FALLBACK
    from transforms.register_tiling import (
        Body,
        fold_short_reductions,
        innermost_bands,
        rows_beside_broadcasts,
    )

    module = affine.parse(source, "conv.mlir")
    (band,) = innermost_bands(module.functions()[0])
    fold_short_reductions(band)  # the filter's short loops unrolled, as the pass does
    (band,) = innermost_bands(module.functions()[0])
    machine = FALLBACK.override(vector_bits=512, vector_registers=registers)
    plan = plan_register_tile(band, machine)
    assert isinstance(plan, RegisterTile), plan
    assert plan.rows and plan.vector and plan.reduction, plan.describe()
    found = rows_beside_broadcasts(Body(band), plan.rows, plan.vector, plan.reduction, machine)
    assert found == rows
    if rows is not None:
        assert (plan.row_factor, plan.vectors) == (rows, 1), plan.describe()


@pytest.mark.parametrize("backend", ["interp", "c"])
def test_a_convolution_s_rows_of_one_vector_compute_the_same(backend: str) -> None:
    module = affine.parse(CONV_5X5, "conv5.mlir")
    tiled = module.clone()
    machine = machine_from_options({"vector-bits": 512})  # 32 registers
    context = PassContext(print_op_on_diagnostic=False)
    done = register_tile_function(tiled.functions()[0], machine, context, fma=False)
    assert "5 rows of" in done[-1] and "1 x 16 lanes" in done[-1], done
    assert check_equivalent(module, tiled, backend=backend, rtol=0.0)


def test_a_convolution_s_short_filter_loop_is_unrolled_and_its_rows_held_across_the_other() -> None:
    # O[i][j] += I[i + p][j + q] * W[p][q] stores O[i][j] at every p and q: two reduction
    # loops, and a tile holds its accumulators across one. q (3 iterations) is unrolled
    # into the body; rows of i and vectors along j are then held across p (5 rows of I a
    # group of vectors walks, read again by the next group): 4096^2 ran 2.05x. (Planned
    # before q is unrolled, the rows would be p, which does not move O: i moves inside p
    # first, which changes nothing once p holds the accumulators.)
    module = parse_kernel("conv2d")
    tiled = module.clone()
    machine = machine_from_options({"vector-bits": 256})  # 16 registers
    context = PassContext(print_op_on_diagnostic=False)
    done = register_tile_function(tiled.functions()[0], machine, context)
    assert any(d.endswith("conv2d.mlir:8:9 unrolled into the body (3 iterations)") for d in done)
    (tile,) = [d for d in done if d.startswith("register tile")]
    assert re.search(r"rows of affine.for at \S*conv2d.mlir:5:3,", tile), tile  # i
    assert "conv2d.mlir:7:7, fused multiply-adds" in tile, tile  # p: the reduction
    (main, *_) = loops_with_vector_accumulators(tiled)
    fmas = [op for op in ForOp(main).body.operations if op.name == "vector.fma"]
    assert len(fmas) == 3 * len(main.results)  # three filter columns per accumulator
    text = print_module(tiled)  # the first copy's q, a constant, folded into the subscripts
    columns = re.findall(r"affine.load %\w+\[%\w+, ([^\]]+)\] : memref<5x3xf32>", text)
    assert set(columns) == {"0", "1", "2"}, columns  # W[p][q] per copy of q, not W[p][%c0]
    for backend in ("interp", "c"):
        assert check_equivalent(module, tiled, backend=backend)


# inner loops that run no iteration for some outer ones: the rest after the full groups
# starts at lb + floor((ub - lb) / size) * size, below lb when ub < lb (j from i to 6 at
# i = 8: floor(-2 / 8) * 8 = -8, and the one-column loop ran j = 0 .. 5)
EMPTY_FOR_SOME = [
    """
    func.func @f(%A: memref<10x16xi32>, %B: memref<10x16xi32>) {
      affine.for %i = 0 to 10 {
        affine.for %j = affine_map<(d0) -> (d0)>(%i) to 6 {
          %a = affine.load %A[%i, %j] : memref<10x16xi32>
          %b = affine.load %A[%i, %j + 1] : memref<10x16xi32>
          %p = arith.muli %a, %b : i32
          affine.store %p, %B[%i, %j] : memref<10x16xi32>
        }
      }
      return
    }
    """,
    """
    func.func @f(%A: memref<4x16xi32>, %n: index) {
      affine.for %i = 0 to 4 {
        affine.for %j = 3 to %n {
          %a = affine.load %A[%i, %j + 6] : memref<4x16xi32>
          affine.store %a, %A[%i, %j + 5] : memref<4x16xi32>
        }
      }
      return
    }
    """,
]


@pytest.mark.parametrize("source", EMPTY_FOR_SOME)
@pytest.mark.parametrize("backend", ["interp", "c"])
def test_an_inner_loop_empty_for_some_rows_runs_no_remainder_there(
    source: str, backend: str
) -> None:
    module = affine.parse(source, "<empty>")
    tiled = module.clone()
    machine = machine_from_options({"vector-bits": 256})
    register_tile_function(tiled.functions()[0], machine, PassContext(print_op_on_diagnostic=False))
    assert "vector" in print_module(tiled)  # the tile was made
    sizes = [0, 2, 3, 4, 10] if "%n" in source else [None]
    for n in sizes:
        args = [np.arange(1, 65, dtype=np.int32).reshape(4, 16), n] if n is not None else []
        outcome = check_equivalent(module, tiled, *args, backend=backend)
        assert outcome, f"n = {n}: {outcome}"


def test_constant_subscripts_defined_in_the_body_are_written_into_the_tile_s_maps() -> None:
    # generated code (a schedule's peeled row) defines its constant subscripts in the loop
    # body; the tile copies the accesses, not the body, so the constant goes into the map
    module = affine.parse(
        """
func.func @f(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 1 to 63 {
      %c1 = arith.constant 1 : index
      %0 = affine.load %A[%c1, %j] : memref<64x64xf32>
      %1 = affine.load %A[%c1, %j - 1] : memref<64x64xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %B[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
""",
        "f.mlir",
    )
    result, _ = run_pipeline(module, PIPELINES["regtile"])
    text = print_module(result)
    assert "affine.vector_load %arg0[1, %" in text
    assert check_equivalent(module.functions()[0], result.functions()[0], backend="c")


# A row of 38 elements in vectors of 16 lanes: two whole vectors and 6 lanes left. Where
# running iterations again changes nothing (no reduction, one store per buffer, moving
# along the row, and no load from a buffer the body stores to), the last vector is a whole
# one ending at the row's end (j = 23..38, 10 lanes computed again): one vector op per
# value, not an odd-width one LLVM splits. Otherwise the 6 lanes stay: an update in place
# computed twice would double the overlap; two stores to one buffer are not told apart.
M = "memref<8x40xf32>"
ROW_ENDS = [
    (f"%v = arith.addf %a, %b : f32\n affine.store %v, %B[%i, %j] : {M}", {16}),
    (
        f"%c = affine.load %B[%i, %j] : {M}\n %v = arith.addf %c, %a : f32\n"
        f" affine.store %v, %B[%i, %j] : {M}",
        {16, 6},
    ),
    (f"affine.store %a, %B[%i, %j] : {M}\n affine.store %b, %B[%i + 4, %j] : {M}", {16, 6}),
]


@pytest.mark.parametrize(("body", "widths"), ROW_ENDS)
def test_a_row_s_last_vector_overlaps_the_one_before_where_recomputing_is_harmless(
    body: str, widths: set[int]
) -> None:
    source = """
func.func @f(%A: memref<8x40xf32>, %B: memref<8x40xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 1 to 39 {
      %a = affine.load %A[%i, %j - 1] : memref<8x40xf32>
      %b = affine.load %A[%i, %j + 1] : memref<8x40xf32>
      BODY
    }
  }
  return
}
"""
    module = affine.parse(source.replace("BODY", body), "f.mlir")
    result = transforms.register_tile(module, vector_bits=512, registers=32).module
    stores = [op for op in result.walk() if op.name == "affine.vector_store"]
    assert {op.operands[0].type.shape[0] for op in stores} == widths  # type: ignore[attr-defined]
    for backend in ("interp", "c"):
        assert check_equivalent(module.functions()[0], result.functions()[0], backend=backend)


TRIANGLE = """
func.func @f(%C: memref<37x40xf32>, %A: memref<37x29xf32>, %At: memref<29x40xf32>) {{
  %alpha = arith.constant 1.5 : f32
  affine.for %i = 0 to 37 {{
    affine.for %k = 0 to 29 {{
      affine.for %j = {bounds} {{
        %a = affine.load %A[%i, %k] : memref<37x29xf32>
        %aa = arith.mulf %alpha, %a : f32
        %b = affine.load %At[%k, %j] : memref<29x40xf32>
        %p = arith.mulf %aa, %b : f32
        %c = affine.load %C[%i, %j] : memref<37x40xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<37x40xf32>
      }}
    }}
  }}
  return
}}
"""


# syrk's C[i][j] += alpha A[i][k] A^T[k][j] over triangles of (i, j): the vector loop j
# has one bound that moves with the rows i (by +-1 or 2 a row). A group of rows runs the
# range all its rows share as a tile, then each row its own end (at most a few vectors),
# all held across k; alpha A[i][k] is not packed (its buffer is laid out by a row's place
# in the group, and a row's end runs alone: packed, row 1's end read row 0's values).
# syrk at 1200 x 1000 (A^T copied): 6.72x -> 16.9x, syr2k 6.80x -> 14.6x
@pytest.mark.parametrize(
    "bounds",
    [
        "0 to affine_map<(d0) -> (d0 + 1)>(%i)",  # j <= i
        "affine_map<(d0) -> (d0)>(%i) to 40",  # j >= i
        "0 to min affine_map<(d0) -> (d0 * 2 + 1, 40)>(%i)",  # j <= 2i, clamped
        "0 to affine_map<(d0) -> (-d0 + 40)>(%i)",  # j < 40 - i: shrinking rows
        "max affine_map<(d0) -> (d0 - 3, 0)>(%i) to 40",  # j >= i - 3, clamped
    ],
)
def test_rows_whose_vector_range_moves_with_the_row_are_tiled_and_compute_the_same(
    bounds: str,
) -> None:
    module = affine.parse(TRIANGLE.format(bounds=bounds), "triangle.mlir")
    result = transforms.register_tile(module, vector_bits=512, registers=32, fma=False)
    text = affine.print_module(result.module)
    assert "affine.vector_load %arg2" in text, text  # A^T[k][j..]: vectors along j
    assert re.search(r"affine.vector_load %arg0\[%arg\d+ \+ 1, ", text), text  # C: rows of i
    assert "memref.alloca" not in text  # nothing packed
    for backend in ("interp", "c"):
        assert check_equivalent(module, result.module, backend=backend, rtol=0.0)


def test_a_triangle_whose_rows_depend_on_one_another_keeps_its_order() -> None:
    # B[i][j] += B[i - 1][j] over j <= i: the ends of a group's rows would run after the
    # range they share, so points of different rows may not depend on one another
    text = """
func.func @f(%B: memref<40x40xf32>) {
  affine.for %i = 1 to 40 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %B[%i - 1, %j] : memref<40x40xf32>
      %b = affine.load %B[%i, %j] : memref<40x40xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %B[%i, %j] : memref<40x40xf32>
    }
  }
  return
}
"""
    module = affine.parse(text, "dep.mlir")
    result = transforms.register_tile(module, vector_bits=512, registers=32)
    (remark,) = result.remarks
    assert remark.startswith(
        "dep.mlir:3:3: remark: loop band not register-tiled: running a row's ends apart from "
        "its group reorders the RAW dependence from affine.store at dep.mlir:8:7 to "
        "affine.load at dep.mlir:5:12 on %B with distance (1, 0)\n"
    ), remark
    assert affine.print_module(result.module) == affine.print_module(module)


def test_rows_move_in_along_the_loop_that_shares_the_vector_loads() -> None:
    # Out[f][y][x] += W[f][c] * In[c][y][x] written f, c, y, x: rows along y (the innermost
    # loop left) each load their own In, and the tile was refused as a walk by rows with no
    # reuse (1.00x at 64 x 64 x 128^2); with f moved inside, next to c and x, one vector of
    # In serves every row's W[f][c] (4.2x)
    text = """
func.func @pointwise(%In: memref<8x12x40xf32>, %W: memref<10x8xf32>, %Out: memref<10x12x40xf32>) {
  affine.for %f = 0 to 10 {
    affine.for %c = 0 to 8 {
      affine.for %y = 0 to 12 {
        affine.for %x = 0 to 40 {
          %i = affine.load %In[%c, %y, %x] : memref<8x12x40xf32>
          %w = affine.load %W[%f, %c] : memref<10x8xf32>
          %o = affine.load %Out[%f, %y, %x] : memref<10x12x40xf32>
          %p = arith.mulf %i, %w : f32
          %q = arith.addf %o, %p : f32
          affine.store %q, %Out[%f, %y, %x] : memref<10x12x40xf32>
        }
      }
    }
  }
  return
}
"""
    module = affine.parse(text, "pointwise.mlir")
    result = module.clone()
    machine = machine_from_options({"vector-bits": 512, "l2": 4, "l1": 1})
    done = register_tile_function(result.functions()[0], machine, PassContext())
    assert done[0].startswith("affine.for at pointwise.mlir:3:3 moved inside"), done
    (tile,) = [d for d in done if d.startswith("register tile")]
    assert "rows of affine.for at pointwise.mlir:3:3" in tile, tile
    assert "reduction affine.for at pointwise.mlir:4:5" in tile, tile
    for backend in ("interp", "c"):
        assert check_equivalent(module, result, backend=backend)


def test_rows_do_not_run_along_a_second_reduction_loop() -> None:
    # MTTKRP, A[i][r] += X[i][j][k] * B[j][r] * C[k][r] written i, j, k, r: A is held across
    # k and stays put along j too, so rows of j (the innermost loop left) would share one
    # accumulator and the tile was refused (it would reverse the sum's order); i, the loop
    # that moves A, goes inside j as the rows (256 x 128 x 128 x 64: 4.05x, untiled 1.0x)
    text = """
func.func @mttkrp(%A: memref<9x40xf32>, %X: memref<9x6x12xf32>, %B: memref<6x40xf32>,
                  %C: memref<12x40xf32>) {
  affine.for %i = 0 to 9 {
    affine.for %j = 0 to 6 {
      affine.for %k = 0 to 12 {
        affine.for %r = 0 to 40 {
          %x = affine.load %X[%i, %j, %k] : memref<9x6x12xf32>
          %b = affine.load %B[%j, %r] : memref<6x40xf32>
          %c = affine.load %C[%k, %r] : memref<12x40xf32>
          %a = affine.load %A[%i, %r] : memref<9x40xf32>
          %p = arith.mulf %x, %b : f32
          %q = arith.mulf %p, %c : f32
          %s = arith.addf %a, %q : f32
          affine.store %s, %A[%i, %r] : memref<9x40xf32>
        }
      }
    }
  }
  return
}
"""
    module = affine.parse(text, "mttkrp.mlir")
    result = module.clone()
    machine = machine_from_options({"vector-bits": 512})
    done = register_tile_function(result.functions()[0], machine, PassContext(), fma=False)
    assert done[0] == (
        "affine.for at mttkrp.mlir:4:3 moved inside, next to the register tile's vector loop, "
        "as its rows"
    ), done
    (tile,) = [d for d in done if d.startswith("register tile")]
    assert "rows of affine.for at mttkrp.mlir:4:3" in tile, tile
    assert "reduction affine.for at mttkrp.mlir:6:7" in tile, tile
    for backend in ("interp", "c"):
        assert check_equivalent(module, result, backend=backend, rtol=0.0)


@pytest.mark.parametrize("taps, pays", [(32, False), (50, False), (51, True), (64, True)])
def test_scalar_rows_over_a_reduction_llvm_unrolls_whole_do_not_pay(taps: int, pays: bool) -> None:
    # y[i] += x[2i + k] h[k]: no vector loop (x moves by 2 along i), 8 rows of scalar sums
    # held across k. Where LLVM unrolls k whole (taps x 6 ops within FULL_UNROLL_OPS) it
    # vectorises i itself (x moves by 2, within MAX_INTERLEAVE): the rows ran 0.42x at 32
    # taps, 4.0x at 64
    from test_chains import FIR

    text = FIR.format(n=128 + taps, k=taps)
    ((tile, objection, _),) = _tiles_and_objections("fir", text)
    assert tile.startswith("8 rows of affine.for at fir.mlir:3:3, reduction"), tile
    assert (objection is None) is pays
    if not pays:
        assert objection == (
            "rows of scalar sums over affine.for at fir.mlir:4:5, which LLVM unrolls whole "
            "and then vectorises the rows' loop itself"
        )
