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


def _messages(result: transforms.PassResult) -> list[str]:
    """The message of each remark, without location and note."""
    return [r.split(": remark: ", 1)[1].split("\n", 1)[0] for r in result.remarks]


def test_forwarding_redundant_loads_and_dead_stores() -> None:
    module = affine.parse(FORWARDING.read_text(), str(FORWARDING))
    result = transforms.scalar_replace(module)
    kinds = _messages(result)
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


def test_different_indices_through_a_layout_may_name_one_element() -> None:
    # d0 + d1 maps [0, 1] and [1, 0] to element 1: the second store overwrites the first
    text = """
    func.func @f(%A: memref<2x2xf32, affine_map<(d0, d1) -> (d0 + d1)>>, %B: memref<1xf32>) {
      %c1 = arith.constant 1.0 : f32
      %c2 = arith.constant 2.0 : f32
      affine.store %c1, %A[0, 1] : memref<2x2xf32, affine_map<(d0, d1) -> (d0 + d1)>>
      affine.store %c2, %A[1, 0] : memref<2x2xf32, affine_map<(d0, d1) -> (d0 + d1)>>
      %v = affine.load %A[0, 1] : memref<2x2xf32, affine_map<(d0, d1) -> (d0 + d1)>>
      affine.store %v, %B[0] : memref<1xf32>
      return
    }
    """
    module = affine.parse(text, "layout.mlir")
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
    kinds = _messages(result)
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


# -- into nests: a load takes the value of an access around the nest ------------------------------

# %A[%i] is loaded in %i's body and again two loops deeper: nothing between writes it (the
# nest stores %A[%i + 8] and %A[%i + 16], provably other elements, and the store of %A[%i]
# comes after the nest in the same iteration), so the deep load is the outer one's value.
# %A[%i + 16] is stored inside the nest: its deep load is kept. (Two memref arguments may
# alias: a store to another argument in the nest would keep both.)
INTO_NESTS = """
func.func @f(%A: memref<24xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<24xf32>
    %b = affine.load %A[%i + 16] : memref<24xf32>
    affine.for %j = 0 to 4 {
      affine.for %k = 0 to 3 {
        %a2 = affine.load %A[%i] : memref<24xf32>
        %b2 = affine.load %A[%i + 16] : memref<24xf32>
        %s = arith.addf %a2, %b2 : f32
        affine.store %s, %A[%i + 8] : memref<24xf32>
      }
      %t = arith.addf %b, %one : f32
      affine.store %t, %A[%i + 16] : memref<24xf32>
    }
    affine.store %one, %A[%i] : memref<24xf32>
  }
  return
}
"""


def test_a_load_in_a_nest_takes_the_value_loaded_around_it() -> None:
    module = affine.parse(INTO_NESTS, "nests.mlir")
    result = transforms.scalar_replace(module)
    kinds = _messages(result)
    assert kinds == ["load replaced by the value of the load at nests.mlir:5:10"]
    text = affine.print_module(result.module)
    assert text.count("affine.load %arg0[%arg1]") == 1  # %A[%i], once
    assert text.count("affine.load %arg0[%arg1 + 16]") == 2  # stored in the nest: kept
    _equivalent(module, result.module)


# A store before the nest forwards into it; a call in the nest, or a store of an element the
# load may read, keeps the load.
STORE_INTO_NEST = """
func.func private @g() -> ()
func.func @f(%A: memref<2x8x8xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %two, %A[0, 0, %i] : memref<2x8x8xf32>
    affine.for %j = 0 to 8 {
      %a = affine.load %A[0, 0, %i] : memref<2x8x8xf32>
      affine.store %a, %A[1, %i, %j] : memref<2x8x8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.store %two, %A[0, 0, %i] : memref<2x8x8xf32>
    affine.for %j = 0 to 8 {
      %a = affine.load %A[0, 0, %i] : memref<2x8x8xf32>
      affine.store %a, %A[0, 0, %j] : memref<2x8x8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.store %two, %A[0, 0, %i] : memref<2x8x8xf32>
    affine.for %j = 0 to 8 {
      func.call @g() : () -> ()
      %a = affine.load %A[0, 0, %i] : memref<2x8x8xf32>
      affine.store %a, %A[1, %j, %i] : memref<2x8x8xf32>
    }
  }
  return
}
"""


def test_a_store_forwards_into_a_nest_unless_something_in_it_may_write() -> None:
    module = affine.parse(STORE_INTO_NEST, "store_nest.mlir")
    plans = [
        transforms.nested_source(op)
        for op in module.functions()[1].walk()
        if op.name == "affine.load"
    ]
    assert [p is not None and p.kind for p in plans] == ["forward", False, False]
    result = transforms.scalar_replace(module)
    assert affine.print_module(result.module).count("affine.load") == 2


# Vectors: a vector stored and loaded back at the same index with the same type is forwarded
# and the local buffer, left with the store only, removed; a load overlapping a stored vector
# (index 32*i + 16 against 32*i, 32 lanes) or of another shape is kept, and a store 32 lanes
# away is apart.
VECTORS = """
func.func @f(%in: memref<512xf32>, %out: memref<512xf32>, %o2: memref<512xf32>) {
  %tmp = memref.alloc() : memref<512xf32>
  affine.for %i = 0 to 16 {
    %v = affine.vector_load %in[32 * %i] : memref<512xf32>, vector<32xf32>
    affine.vector_store %v, %tmp[32 * %i] : memref<512xf32>, vector<32xf32>
    %w = affine.vector_load %tmp[32 * %i] : memref<512xf32>, vector<32xf32>
    affine.vector_store %w, %out[32 * %i] : memref<512xf32>, vector<32xf32>
  }
  affine.for %i = 0 to 15 {
    %v = affine.vector_load %in[32 * %i] : memref<512xf32>, vector<32xf32>
    affine.vector_store %v, %o2[32 * %i] : memref<512xf32>, vector<32xf32>
    affine.vector_store %v, %o2[32 * %i + 32] : memref<512xf32>, vector<32xf32>
    %w = affine.vector_load %o2[32 * %i + 16] : memref<512xf32>, vector<32xf32>
    %x = affine.vector_load %o2[32 * %i] : memref<512xf32>, vector<16xf32>
    %y = affine.vector_load %o2[32 * %i] : memref<512xf32>, vector<32xf32>
    %s = arith.addf %w, %y : vector<32xf32>
    affine.vector_store %s, %out[32 * %i] : memref<512xf32>, vector<32xf32>
    affine.vector_store %x, %out[32 * %i + 8] : memref<512xf32>, vector<16xf32>
  }
  return
}
"""


def test_vectors_forward_only_the_same_vector() -> None:
    module = affine.parse(VECTORS, "vectors.mlir")
    result = transforms.scalar_replace(module)
    kinds = _messages(result)
    assert kinds == [
        "load replaced by the value of the store at vectors.mlir:6:5",
        "load replaced by the value of the store at vectors.mlir:12:5",
        "store removed: nothing reads the local buffer allocated at vectors.mlir:3:10",
    ]
    text = affine.print_module(result.module)
    assert "memref.alloc" not in text
    assert text.count("affine.vector_load %arg2") == 2  # the overlapping and the narrower
    _equivalent(module, result.module)


def test_arguments_taken_apart_forward_across_stores_to_another_argument() -> None:
    # %B may be %A's alias unless the caller says the arguments are apart (as the
    # dependence model takes them: the auto-scheduler's fused sweeps)
    module = affine.parse(
        """
func.func @f(%A: memref<16xf32>, %B: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i] : memref<16xf32>
    affine.store %a, %B[%i] : memref<16xf32>
    %b = affine.load %A[%i] : memref<16xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %B[%i] : memref<16xf32>
  }
  return
}
""",
        "f.mlir",
    )
    block = next(op for op in module.functions()[0].walk() if op.name == "affine.for")
    body = block.regions[0].blocks[0]
    assert transforms.plan_block(body) == []
    apart = transforms.plan_block(body, arguments_apart=True)
    assert [p.kind for p in apart] == ["redundant", "dead"]
    original = module.clone()
    transforms.scalar_replacement.scalar_replace_function(
        module.functions()[0], arguments_apart=True
    )
    _equivalent(original, module)
