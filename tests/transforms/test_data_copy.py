"""-affine-data-copy-generate: every option combination on kernels of the corpus (matmul,
stencils, tiled loops, the shapes of mlir-opt's dma-generate tests) computes the original's
results in both backends; remarks give the copied volume beside the bounding box's; mlir-opt
22 accepts every output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_mlir_opt

import affine
import transforms
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from transforms.data_copy import CopyOptions, generate_copies, plan_copies
from transforms.loop_utils import loops

CORPUS = Path(__file__).parent.parent / "corpus"
COPY = CORPUS / "datamove" / "copy.mlir"
KERNELS = [
    COPY,
    CORPUS / "kernels" / "gemm.mlir",
    CORPUS / "kernels" / "jacobi_2d.mlir",
    CORPUS / "kernels" / "min_max_bounds.mlir",
    CORPUS / "kernels" / "mod_floordiv.mlir",
    CORPUS / "kernels" / "dma_tiles.mlir",
    CORPUS / "affine" / "tiled_matmul.mlir",
    CORPUS / "datamove" / "empty_rows.mlir",
    CORPUS / "datamove" / "conditional_store.mlir",
    CORPUS / "fusion" / "permuted_layout.mlir",
]
OPTIONS = {
    "loops": {},
    "dma": {"generate_dma": True},
    "capacity-1": {"fast_mem_capacity": 1},
    "dma-capacity-1": {"generate_dma": True, "fast_mem_capacity": 1, "min_dma_transfer": 4},
    "dma-skip-strided": {
        "generate_dma": True,
        "fast_mem_space": 2,
        "skip_non_unit_stride_loops": True,
    },
    "dma-capacity-16": {"generate_dma": True, "fast_mem_capacity": 16, "fast_mem_space": 2},
    "spaces": {
        "generate_dma": True,
        "fast_mem_space": 3,
        "tag_mem_space": 1,
        "min_dma_transfer": 0,
    },
}
SIZES = {"unknown_size": {0: (12, 9), 1: (12, 9)}, "tiled": {0: (40, 36), 1: (36, 33), 2: (40, 33)}}


def _parse(path: Path) -> Module:
    return affine.parse(path.read_text(), str(path))


def _name(function) -> str:  # a func.func op
    return function.get_attr("sym_name").value


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
@pytest.mark.parametrize("options", OPTIONS.values(), ids=list(OPTIONS))
def test_copies_compute_the_same(path: Path, options: dict) -> None:
    module = _parse(path)
    result = transforms.copy_data(module, **options)
    again = affine.parse(affine.print_module(result.module), "copied.mlir")
    for function in module.functions():
        name = _name(function)
        sizes = SIZES.get(name)
        for backend in ("interp", "c"):
            verdict = check_equivalent(
                module, again, backend=backend, f_entry=name, g_entry=name, sizes=sizes
            )
            assert verdict, (name, backend, verdict)


def _remarks(path: Path, **options: object) -> str:
    return "\n".join(transforms.copy_data(_parse(path), **options).remarks)


def test_remark_gives_copied_volume_and_bounding_box() -> None:
    remarks = _remarks(CORPUS / "kernels" / "min_max_bounds.mlir")
    # C is touched under the triangle j <= i of the min/max bounds: 549 of the 30x30 box
    assert (
        "copied %C (memref<30x30xf32>) into a 30x30 buffer by copy loops: 549 elements read "
        "and 549 written, bounding box 900 elements; the footprint is not a box"
    ) in remarks
    union = _remarks(COPY)
    # two loads and two stores: a 190x254 bounding box of which 4 64x64 squares are touched
    assert "into a 190x254 buffer by copy loops: 8192 elements read and 8192 written" in union


def test_placement_follows_options() -> None:
    module = _parse(COPY)
    text = affine.print_module(transforms.copy_data(module, generate_dma=True).module)
    tiled = text[text.index("@loop_nest_tiled") : text.index("@loop_nest_modulo")]
    assert "memref<64x128xf32, 1>" in tiled  # infinite capacity: around the outermost loop
    text = affine.print_module(
        transforms.copy_data(
            module,
            generate_dma=True,
            fast_mem_space=2,
            skip_non_unit_stride_loops=True,
            min_dma_transfer=64,
        ).module
    )
    tiled = text[text.index("@loop_nest_tiled") : text.index("@loop_nest_modulo")]
    assert "memref<32x32xf32, 2>" in tiled  # around the first unit-stride loop: one tile
    assert "%c1024, %c128, %c32 : memref<64x128xf32>, memref<32x32xf32, 2>" in tiled  # strided
    modulo = text[text.index("@loop_nest_modulo") : text.index("@constant_dim_access")]
    assert "memref<1x2xf32, 2>" in modulo
    one_d = text[text.index("@loop_nest_1d") : text.index("@loop_nest_tiled")]
    assert "memref<256xf32, 2>" in one_d and "memref<256xf32, 2>, memref<1xi32>" in one_d


def test_refusals_say_why() -> None:
    remarks = _remarks(COPY)
    assert (
        "%A (memref<?x?xf32>) not copied: dimension 1 of the region has no constant extent"
        in remarks
    )
    # %j from max(M, 0) to min(N, 91): the columns start at a max of bounds; from its piece
    # 0 they span at most 91 values (j - 0 in [0, 90]), so the buffer is 100x91, not whole
    assert "copied %A (memref<100x100xf32>) into a 100x91 buffer" in remarks
    dma = _remarks(CORPUS / "kernels" / "dma_tiles.mlir")
    assert "not copied: affine.dma_start at" in dma


@pytest.mark.mlir
@pytest.mark.parametrize("options", OPTIONS.values(), ids=list(OPTIONS))
def test_mlir_opt_accepts_the_output(mlir_opt: str, options: dict) -> None:
    for path in KERNELS:
        result = transforms.copy_data(_parse(path), **options)
        done = run_mlir_opt(mlir_opt, affine.print_module(result.module))
        assert done.returncode == 0, (path, done.stderr)


def test_a_memref_with_a_layout_map_is_not_copied() -> None:
    """Its footprint holds the layout's elements (6 x 4 for a 4 x 6 transposed memref)
    while a buffer is indexed like the memref: as in mlir-opt, it is left alone."""
    path = CORPUS / "fusion" / "permuted_layout.mlir"
    for options in ({}, {"generate_dma": True}):
        remarks = _remarks(path, **options)
        assert remarks.count("it has a layout map, which mlir-opt does not copy either") == 2
        assert "copied %in (memref<4x6xf32>) into a 4x6 buffer" in remarks


def test_no_dma_moves_a_box_where_the_loop_is_empty() -> None:
    remarks = _remarks(
        CORPUS / "datamove" / "empty_rows.mlir",
        generate_dma=True,
        fast_mem_capacity=1,
        min_dma_transfer=4,
    )
    assert remarks.count("(no DMA: the loop accesses none of it at some iterations") == 2
    assert "copied %B (memref<12x12xi32>) into a 1x12 buffer by DMA" in remarks


def test_a_missing_copy_out_is_seen() -> None:
    """Without the copy-out of the written footprint, the results differ: the execution
    comparison above would catch a wrong footprint."""
    module = _parse(CORPUS / "kernels" / "gemm.mlir")
    broken = module.clone()
    loop = loops(broken.functions()[0])[0]
    plans, _ = plan_copies(loop)
    for plan in plans:
        plan.footprint.writes = None
        generate_copies(plan, CopyOptions())
    again = affine.parse(affine.print_module(broken), "broken.mlir")
    assert not check_equivalent(module, again)


# %jj runs over [max(16 i, 6 j), min(16 i + 16, 6 j + 6, 64)): at most 6 values from 6 j,
# unboundedly many from 16 i (j may be large), so the box starts at the piece 6 j, 6 wide.
MAX_LOWER_BOUND = """\
func.func @max_lower_bound(%M: memref<64x64xf64>, %out: memref<64x64xf64>, %i: index, %j: index) {
  affine.for %ii = 0 to 64 {
    affine.for %jj = max affine_map<()[s0, s1] -> (s0 * 16, s1 * 6)>()[%i, %j]
        to min affine_map<()[s0, s1] -> (s0 * 16 + 16, s1 * 6 + 6, 64)>()[%i, %j] {
      %v = affine.load %M[%ii, %jj] : memref<64x64xf64>
      affine.store %v, %out[%ii, %jj] : memref<64x64xf64>
    }
  }
  return
}
"""


def test_a_box_starting_at_a_max_starts_at_its_tightest_piece() -> None:
    module = affine.parse(MAX_LOWER_BOUND, "m.mlir")
    inner = [op for op in module.functions()[0].walk() if op.name == "affine.for"][1]
    plans, refused = plan_copies(inner)
    assert not refused and [p.memref.name for p in plans] == ["%M", "%out"]
    box = plans[0].box
    assert box.extents == [1, 6]
    names = [plans[0].params[name].name for name in box.params]
    for i in range(5):
        for j in range(12):
            values = {"%i": i, "%j": j, "%ii": 3}
            symbols = [values[n] for n in names]
            row, column = (s.evaluate((), symbols) for s in box.starts)
            touched = range(max(16 * i, 6 * j), min(16 * i + 16, 6 * j + 6, 64))
            assert row == 3 and all(column <= jj < column + 6 for jj in touched)
    remarks = "\n".join(transforms.copy_data(module, fast_mem_space=0, fast_mem_capacity=1).remarks)
    assert "copied %M (memref<64x64xf64>) into a 1x6 buffer" in remarks


def test_an_access_through_a_view_keeps_the_memref() -> None:
    """A load through a subview indexes the view, not the memref: rewritten as an index
    into the memref's buffer it would read %A[i][1] where the original reads %A[i + 2][1].
    The memref is not copied, and the results stay the same."""
    text = """
func.func @f(%A: memref<8x8xf32>, %B: memref<4xf32>) {
  %v = memref.subview %A[2, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 16>>
  affine.for %i = 0 to 4 {
    %x = affine.load %v[%i, 1] : memref<4x4xf32, strided<[8, 1], offset: 16>>
    %y = affine.load %A[%i, 0] : memref<8x8xf32>
    %z = arith.addf %x, %y : f32
    affine.store %z, %B[%i] : memref<4xf32>
  }
  return
}
"""
    module = affine.parse(text, "view.mlir")
    result = transforms.copy_data(module)
    assert any(
        "%A (memref<8x8xf32>) not copied: affine.load at view.mlir:5:10 accesses it through a view"
        in r
        for r in result.remarks
    ), result.remarks
    for backend in ("interp", "c"):
        assert check_equivalent(module, result.module, backend=backend)
