"""-affine-pipeline-data-transfer: double-buffered loops compute what the originals computed
(interpreter and C backend), refusals say why, and mlir-opt 22 accepts every output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_mlir_opt

import affine
import transforms
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from affine.ops import ForOp
from transforms.loop_utils import loops
from transforms.pipeline_transfer import check_pipelining, find_transfers, pipeline_loop

CORPUS = Path(__file__).parent.parent / "corpus"
PIPELINE = CORPUS / "datamove" / "pipeline.mlir"
SEED = CORPUS / "seed" / "dma_seed.mlir"
LAYOUT_SYMBOL = CORPUS / "datamove" / "pipeline_layout_symbol.mlir"

REFUSED = {
    "source_written": "starting the DMA one iteration early reverses the RAW dependence",
    "source_written_first": "starting the DMA one iteration early reverses the RAW dependence",
    "live_out": "the buffer is used outside the loop by affine.load",
    "carried_in_buffer": "a value stays in the buffer between iterations: RAW dependence",
}


def _parse(path: Path) -> Module:
    return affine.parse(path.read_text(), str(path))


def _names(module: Module) -> list[str]:
    return [f.get_attr("sym_name").value for f in module.functions()]  # type: ignore[union-attr]


@pytest.mark.parametrize("path", [PIPELINE, SEED, LAYOUT_SYMBOL], ids=lambda p: p.name)
@pytest.mark.parametrize("backend", ["interp", "c"])
def test_pipelined_loops_compute_the_same(path: Path, backend: str) -> None:
    module = _parse(path)
    result = transforms.pipeline_transfers(module)
    again = affine.parse(affine.print_module(result.module), "pipelined.mlir")
    for name in _names(module):
        verdict = check_equivalent(module, again, backend=backend, f_entry=name, g_entry=name)
        assert verdict, (name, verdict)


def test_pipelined_shape() -> None:
    result = transforms.pipeline_transfers(_parse(PIPELINE))
    text = affine.print_module(result.module)
    body = text[text.index("@loop_nest_dma") : text.index("@loop_step")]
    assert "memref.alloc() : memref<2x32xf32, 1>" in body
    assert "memref.alloc() : memref<2x1xf32>" in body
    assert "affine.for %arg2 = 1 to 8 {" in body
    # the prologue starts iteration 0 into half 0, the epilogue waits on half 1 (7 mod 2)
    assert "%arg0[0], %alloc[0, 0], %alloc_0[0, 0]" in body
    assert "affine.dma_wait %alloc_0[1, 0]" in body
    step = text[text.index("@loop_step") : text.index("@one_trip")]
    assert "affine.for %arg2 = 4 to 512 step 4 {" in step
    assert "(%arg2 floordiv 4) mod 2" in step
    assert "memref.alloc() : memref<4xf32, 1>" not in step  # moved out of the loop, doubled
    one = text[text.index("@one_trip") : text.index("@memref_dma")]
    assert "affine.for %arg2 = 6 to 6 {" in one  # zero trips left; prologue and epilogue run
    seed = affine.print_module(transforms.pipeline_transfers(_parse(SEED)).module)
    assert 'memref<2x32xf32, "vmem">' in seed


def test_refusals_say_why() -> None:
    result = transforms.pipeline_transfers(_parse(PIPELINE))
    remarks = "\n".join(result.remarks)
    for reason in REFUSED.values():
        assert f"remark: DMA not pipelined: {reason}" in remarks
    assert len(result.remarks) == len(REFUSED)


@pytest.mark.parametrize("name", ["source_written", "source_written_first", "carried_in_buffer"])
def test_refused_rewrites_would_change_results(name: str) -> None:
    """Forcing the rewrite where the check refuses changes what the function computes: the
    check is needed, and the execution comparison sees the difference."""
    module = _parse(PIPELINE)
    forced = module.clone()
    function = next(f for f in forced.functions() if f.get_attr("sym_name").value == name)  # type: ignore[union-attr]
    loop = loops(function)[0]
    transfers, _ = find_transfers(loop)
    verdict = check_pipelining(loop, transfers)
    assert not verdict and REFUSED[name] in verdict.reason
    pipeline_loop(loop, transfers)
    again = affine.parse(affine.print_module(forced), "forced.mlir")
    assert not check_equivalent(module, again, f_entry=name, g_entry=name)


def test_zero_trip_and_symbolic_loops_are_refused() -> None:
    text = PIPELINE.read_text().replace("affine.for %i = 5 to 6 {", "affine.for %i = 6 to 6 {")
    module = affine.parse(text, "zero.mlir")
    function = next(f for f in module.functions() if f.get_attr("sym_name").value == "one_trip")  # type: ignore[union-attr]
    loop = loops(function)[0]
    assert ForOp(loop).constant_trip_count() == 0
    assert check_pipelining(loop).reason == "the loop never runs"


@pytest.mark.mlir
def test_mlir_opt_accepts_the_output(mlir_opt: str) -> None:
    for path in (PIPELINE, SEED):
        result = transforms.pipeline_transfers(_parse(path))
        done = run_mlir_opt(mlir_opt, affine.print_module(result.module))
        assert done.returncode == 0, done.stderr


@pytest.mark.mlir
def test_mlir_opt_pipelines_what_we_refuse_and_computes_other_results(mlir_opt: str) -> None:
    """mlir-opt 22 double-buffers the three loops the check refuses for a dependence or a
    value kept in the buffer; its output computes other results there, and the same as the
    original on the loops both pipeline."""
    module = _parse(PIPELINE)
    done = run_mlir_opt(mlir_opt, PIPELINE.read_text(), "-affine-pipeline-data-transfer")
    assert done.returncode == 0, done.stderr
    theirs = affine.parse(done.stdout, "mlir-opt.mlir")
    for name in ("loop_nest_dma", "loop_step", "one_trip"):
        assert check_equivalent(module, theirs, f_entry=name, g_entry=name)
    for name in ("source_written", "source_written_first", "carried_in_buffer"):
        assert not check_equivalent(module, theirs, f_entry=name, g_entry=name)
