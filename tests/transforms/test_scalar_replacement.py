"""--affine-scalrep: forwarding, redundant loads and dead stores where the accesses provably
match; results equal in both backends; aliasing arguments block; 0-d memrefs and
non-affine regions are handled; mlir-opt 22 reads the output."""

from __future__ import annotations

from pathlib import Path

import pytest

import affine
import transforms
from tests.conftest import run_mlir_opt

ROOT = Path(__file__).resolve().parents[1] / "corpus"
FORWARDING = ROOT / "scalrep" / "forwarding.mlir"


def _equivalent(original: affine.Module, result: affine.Module) -> None:
    for backend in ("interp", "c"):
        verdict = affine.check_equivalent(original, result, backend=backend)
        assert verdict, (backend, verdict)


def test_forwarding_redundant_loads_and_dead_stores() -> None:
    module = affine.parse(FORWARDING.read_text(), str(FORWARDING))
    result = transforms.scalar_replace(module)
    kinds = [r.split(": remark: ", 1)[1].split("\n", 1)[0] for r in result.remarks]
    assert sum(k.startswith("load replaced by the value of the load") for k in kinds) == 1
    assert sum(k.startswith("load replaced by the value of the store") for k in kinds) == 3
    assert sum(k.startswith("dead store removed") for k in kinds) == 1
    text = affine.print_module(result.module)
    body = text.split("affine.for", 1)[1].split("scf.for", 1)[0]
    assert body.count("affine.load") == 2  # %A[%i] once, %B[%i] after a store to %A
    _equivalent(module, result.module)


def test_a_store_to_an_argument_that_may_alias_blocks_forwarding() -> None:
    text = """
    func.func @f(%A: memref<8xf32>, %B: memref<8xf32>) {
      affine.for %i = 0 to 7 {
        %a = affine.load %A[%i] : memref<8xf32>
        affine.store %a, %B[%i] : memref<8xf32>
        affine.store %a, %A[0] : memref<8xf32>
        %b = affine.load %B[%i] : memref<8xf32>
        %c = affine.load %A[%i + 1] : memref<8xf32>
        %s = arith.addf %b, %c : f32
        affine.store %s, %A[%i] : memref<8xf32>
      }
      return
    }
    """
    module = affine.parse(text, "alias.mlir")
    result = transforms.scalar_replace(module)
    assert result.remarks == []
    _equivalent(module, result.module)


def test_a_store_through_a_view_of_an_allocation_blocks_forwarding() -> None:
    text = """
    func.func @f(%A: memref<8xf32>, %B: memref<8xf32>) {
      %T = memref.alloc() : memref<8xf32>
      %V = memref.subview %T[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
      affine.for %i = 0 to 8 {
        %a = affine.load %A[%i] : memref<8xf32>
        affine.store %a, %T[%i] : memref<8xf32>
        %d = arith.addf %a, %a : f32
        affine.store %d, %V[%i] : memref<8xf32, strided<[1]>>
        %t = affine.load %T[%i] : memref<8xf32>
        affine.store %t, %B[%i] : memref<8xf32>
      }
      memref.dealloc %T : memref<8xf32>
      return
    }
    """
    module = affine.parse(text, "view.mlir")
    result = transforms.scalar_replace(module)
    assert result.remarks == []
    _equivalent(module, result.module)


def test_scalrep_after_fusion_forwards_the_private_element() -> None:
    path = ROOT / "fusion" / "elementwise_chain.mlir"
    module = affine.parse(path.read_text(), str(path))
    fused = transforms.fuse(module).module
    result = transforms.scalar_replace(fused)
    text = affine.print_module(result.module)
    assert "affine.load %alloc" not in text
    assert text.count("affine.load %arg0") == 1  # the second load of %A is redundant
    _equivalent(module, result.module)


def test_plan_is_public_and_names_the_access_it_relies_on() -> None:
    module = affine.parse(FORWARDING.read_text(), str(FORWARDING))
    loop = next(op for op in module.functions()[0].walk() if op.name == "affine.for")
    plan = transforms.plan_block(loop.regions[0].blocks[0])
    assert [p.kind for p in plan] == ["redundant", "forward", "forward", "dead"]
    assert all(p.because.name in ("affine.load", "affine.store") for p in plan)


@pytest.mark.mlir
def test_mlir_opt_reads_the_output(mlir_opt: str) -> None:
    module = affine.parse(FORWARDING.read_text(), str(FORWARDING))
    done = run_mlir_opt(mlir_opt, affine.print_module(transforms.scalar_replace(module).module))
    assert done.returncode == 0, done.stderr
