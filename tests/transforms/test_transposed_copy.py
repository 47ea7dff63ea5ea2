"""--affine-transpose-copy: read-only arrays whose innermost reads move by rows are read from
a copy with their dimensions reordered; the results are bit-identical in both backends, the
copy is refused where the nest writes the array, reads it through a view, holds a call, or
reads it too few times to pay for the copy; mlir-opt 22 accepts the output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_mlir_opt

import affine
import transforms
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from poly.tile_model import instance_counts, transpositions
from transforms.loop_utils import is_loop

KERNELS = Path(__file__).parent.parent / "corpus" / "kernels"

# syr2k-shaped: C[i][j] += A[j][k] * B[i][k], j innermost. A[j][k] moves a whole row per
# iteration of j; B[i][k] is invariant along j.
READS_BY_ROWS = """
func.func @f(%C: memref<12x12xf32>, %A: memref<12x10xf32>, %B: memref<12x10xf32>) {
  affine.for %i = 0 to 12 {
    affine.for %k = 0 to 10 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %a = affine.load %A[%j, %k] : memref<12x10xf32>
        %b = affine.load %B[%i, %k] : memref<12x10xf32>
        %p = arith.mulf %a, %b : f32
        %c = affine.load %C[%i, %j] : memref<12x12xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<12x12xf32>
      }
    }
  }
  return
}
"""


def _parse(text: str, name: str = "t.mlir") -> Module:
    return affine.parse(text, name)


def _equivalent(module: Module, result: Module, name: str) -> None:
    again = _parse(affine.print_module(result), "transposed.mlir")
    for backend in ("interp", "c"):
        verdict = check_equivalent(module, again, backend=backend, f_entry=name, g_entry=name)
        assert verdict, (backend, verdict)


def _orders(text: str) -> list[tuple[str, tuple[int, ...]]]:
    function = _parse(text).functions()[0]
    counts = instance_counts(function)
    nests = [op for op in function.regions[0].blocks[0].operations if is_loop(op)]
    return [(str(t.memref.name), t.order) for nest in nests for t in transpositions(nest, counts)]


# Each row: a 3-d read inside i, j, k (k innermost) and the layout that makes it stride-1
# along k: the dimension k moves goes last, the others keep their order; a read already
# stride-1, invariant along k, or moving two coordinates at once wants no other layout.
LAYOUTS = [
    ("%X[%k, %i, %j]", [("%X", (1, 2, 0))]),
    ("%X[%i, %k, %j]", [("%X", (0, 2, 1))]),
    ("%X[%i, %j, %k]", []),
    ("%X[%i, %j, %i]", []),
    ("%X[%k, %k, %j]", []),
]


@pytest.mark.parametrize(("subscripts", "expected"), LAYOUTS, ids=[s for s, _ in LAYOUTS])
def test_the_coordinate_the_innermost_loop_moves_goes_last(subscripts: str, expected: list) -> None:
    text = f"""
func.func @f(%X: memref<8x8x8xf32>, %Y: memref<8x8x8xf32>) {{
  affine.for %i = 0 to 8 {{
    affine.for %j = 0 to 8 {{
      affine.for %k = 0 to 8 {{
        %x = affine.load {subscripts} : memref<8x8x8xf32>
        affine.store %x, %Y[%i, %j, %k] : memref<8x8x8xf32>
      }}
    }}
  }}
  return
}}
"""
    assert _orders(text) == expected


def test_syr2k_shape_reads_a_transposed_copy_with_the_same_results() -> None:
    module = _parse(READS_BY_ROWS)
    result = transforms.transpose_copy(module, min_reuse=2)
    text = affine.print_module(result.module)
    assert "memref<10x12xf32>" in text, text  # A^T
    assert any("copied %A" in r and "transposed" in r for r in result.remarks), result.remarks
    assert not any("copied %B" in r for r in result.remarks)  # invariant along j
    _equivalent(module, result.module, "f")


@pytest.mark.parametrize("kernel", ["syrk", "syr2k", "trmm", "doitgen"])
def test_corpus_kernels_compute_the_same_from_transposed_copies(kernel: str) -> None:
    path = KERNELS / f"{kernel}.mlir"
    module = _parse(path.read_text(), str(path))
    result = transforms.transpose_copy(module, min_reuse=1)
    assert any("transposed" in r for r in result.remarks), result.remarks
    name = module.functions()[0].get_attr("sym_name").value
    _equivalent(module, result.module, name)


REFUSALS = {
    # the nest stores to the array it reads by rows
    "written": (
        READS_BY_ROWS.replace(
            "%C[%i, %j] : memref<12x12xf32>\n      }", "%A[%i, %k] : memref<12x10xf32>\n      }"
        ),
        "the nest writes it",
    ),
    # a call may write the array it is given
    "call": (
        READS_BY_ROWS.replace(
            "%s = arith.addf %c, %p : f32",
            "%s = arith.addf %c, %p : f32\n        func.call @g(%A) : (memref<12x10xf32>) -> ()",
        )
        + "func.func private @g(memref<12x10xf32>)\n",
        "uses it other than by an affine load or store",
    ),
    # each element of A is read once: a copy costs as much as it saves
    "no reuse": (
        """
func.func @f(%A: memref<12x10xf32>, %y: memref<12xf32>) {
  affine.for %k = 0 to 10 {
    affine.for %j = 0 to 12 {
      %a = affine.load %A[%j, %k] : memref<12x10xf32>
      %v = affine.load %y[%j] : memref<12xf32>
      %s = arith.addf %a, %v : f32
      affine.store %s, %y[%j] : memref<12xf32>
    }
  }
  return
}
""",
        "run fewer than 16 times per element",
    ),
    # the array is read through a subview: the view's indices are not the array's
    "view": (
        """
func.func @f(%C: memref<12x12xf32>, %A: memref<24x10xf32>) {
  %v = memref.subview %A[12, 0] [12, 10] [1, 1] : memref<24x10xf32> to memref<12x10xf32, strided<[10, 1], offset: 120>>
  affine.for %i = 0 to 12 {
    affine.for %k = 0 to 10 {
      affine.for %j = 0 to 12 {
        %a = affine.load %v[%j, %k] : memref<12x10xf32, strided<[10, 1], offset: 120>>
        %c = affine.load %C[%i, %j] : memref<12x12xf32>
        %s = arith.addf %c, %a : f32
        affine.store %s, %C[%i, %j] : memref<12x12xf32>
      }
    }
  }
  return
}
""",
        "through a view",
    ),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_refusals_leave_the_nest_alone_and_say_why(case: str) -> None:
    text, reason = REFUSALS[case]
    module = _parse(text)
    result = transforms.transpose_copy(module, min_reuse=2 if case != "no reuse" else 16)
    assert affine.print_module(result.module) == affine.print_module(module)
    assert all("copied" not in r for r in result.remarks), result.remarks
    if reason:
        assert any(reason in r for r in result.remarks), result.remarks


@pytest.mark.mlir
@pytest.mark.parametrize("kernel", ["syr2k", "trmm"])
def test_mlir_opt_accepts_the_output(mlir_opt: str, kernel: str) -> None:
    path = KERNELS / f"{kernel}.mlir"
    result = transforms.transpose_copy(affine.parse(path.read_text(), str(path)), min_reuse=1)
    out = run_mlir_opt(mlir_opt, affine.print_module(result.module))
    assert out.returncode == 0, out.stderr
