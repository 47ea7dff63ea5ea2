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


# -- across loops: exact value-based dependences, local buffers only ---------------------------

# mlir-opt's store_load_fwd, observable: the loads deep in the nest read the one value stored
# before it; the buffer is then never read and goes away with its store.
STORE_BEFORE_THE_NEST = """
func.func @f(%B: memref<10x10xf32>) {
  %c = arith.constant 7.0 : f32
  %m = memref.alloc() : memref<10xf32>
  affine.store %c, %m[0] : memref<10xf32>
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %v = affine.load %m[0] : memref<10xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %B[%i, %j] : memref<10x10xf32>
    }
  }
  return
}
"""


def test_a_store_before_a_nest_is_forwarded_into_it_and_the_buffer_removed() -> None:
    module = affine.parse(STORE_BEFORE_THE_NEST, "nest.mlir")
    result = transforms.scalar_replace(module)
    kinds = [r.split(": remark: ", 1)[1].split("\n", 1)[0] for r in result.remarks]
    assert kinds == [
        "load replaced by the value of the store at nest.mlir:5:3",
        "store removed: nothing reads the local buffer allocated at nest.mlir:4:8",
    ]
    text = affine.print_module(result.module)
    assert "memref.alloc" not in text and "arith.addf %cst, %cst" in text
    _equivalent(module, result.module)


# The value stored in iteration i reaches the load in iteration i (same iteration of the loop
# around its definition, %x): forwarded. The load of %m[%i - 1] reads the value of iteration
# i - 1, which %x no longer holds: kept.
SAME_AND_PREVIOUS_ITERATION = """
func.func @f(%A: memref<10xf32>, %B: memref<10x4xf32>, %C: memref<10xf32>) {
  %m = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %x = affine.load %A[%i] : memref<10xf32>
    affine.store %x, %m[%i] : memref<10xf32>
    affine.for %j = 0 to 4 {
      %y = affine.load %m[%i] : memref<10xf32>
      affine.store %y, %B[%i, %j] : memref<10x4xf32>
    }
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) {
      %z = affine.load %m[%i - 1] : memref<10xf32>
      affine.store %z, %C[%i] : memref<10xf32>
    }
  }
  return
}
"""


def test_only_a_value_of_the_same_iteration_is_forwarded() -> None:
    module = affine.parse(SAME_AND_PREVIOUS_ITERATION, "iter.mlir")
    result = transforms.scalar_replace(module)
    (remark,) = result.remarks
    assert remark.startswith("iter.mlir:8:12: remark: load replaced by the value of the store")
    text = affine.print_module(result.module)
    assert text.count("affine.load %alloc") == 1 and "%alloc[%arg3 - 1]" in text
    _equivalent(module, result.module)


# Loads whose instances read two different stores, or memory no store wrote, keep their load.
NOT_ONE_SOURCE = """
func.func @f(%B: memref<10xf32>) {
  %c = arith.constant 7.0 : f32
  %d = arith.constant 9.0 : f32
  %m = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 5 {
    affine.store %c, %m[%i] : memref<10xf32>
  }
  affine.for %i = 5 to 10 {
    affine.store %d, %m[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %m[%i] : memref<10xf32>
    affine.store %v, %B[%i] : memref<10xf32>
  }
  %n = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 9 {
    affine.store %c, %n[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %n[%i] : memref<10xf32>
    affine.store %v, %B[%i] : memref<10xf32>
  }
  return
}
"""


def test_loads_of_two_stores_or_of_unwritten_memory_are_kept() -> None:
    module = affine.parse(NOT_ONE_SOURCE, "two.mlir")
    result = transforms.scalar_replace(module)
    assert result.remarks == []
