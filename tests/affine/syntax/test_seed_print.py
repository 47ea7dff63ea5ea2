"""Seed-syntax programs print as modern MLIR that mlir-opt 22 accepts and that computes what
the seed program computes: identity layouts whose symbols only size them are dropped with
the ``alloc`` operands bound to them, named memory spaces are kept, compositions with
``size`` clauses are composed into one map."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, run_mlir_opt

import affine
from affine.exec.equivalence import check_equivalent
from affine.ir.types import MemRefType

SEED_FILES = sorted((CORPUS / "seed").glob("*.mlir"))
SEED_IDS = [p.name for p in SEED_FILES]


def _runnable(func: affine.Operation) -> bool:
    """A function with a body whose arguments are all memrefs of static shape."""
    args = func.regions[0].blocks[0].arguments if func.regions[0].blocks else None
    return bool(args) and all(
        isinstance(a.type, MemRefType) and a.type.has_static_shape for a in args
    )


def test_identity_layouts_are_dropped_with_the_symbols_bound_to_them() -> None:
    module = affine.parse((CORPUS / "seed" / "dropped_layouts.mlir").read_text(), "seed.mlir")
    allocs = [op for op in module.walk() if op.name == "memref.alloc"]
    assert [str(op.results[0].type) for op in allocs] == [
        "memref<4x4xf32>",
        'memref<?x4xf32, "hbm">',
        "memref<4x4xf32, affine_map<(d0, d1)[s0, s1, s2, s3] -> (d0 + s0 - s2, d1 + s1 - s3)>, "
        '"vmem">',
        'memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 floordiv 2, d1, d0 mod 2)>, "hbm">',
        "memref<16xf32>",
        'memref<4x4xf32, "hbm">',
    ]
    assert [len(op.operands) for op in allocs] == [0, 1, 4, 1, 0, 0]


def test_a_wrong_symbol_count_for_a_dropped_layout_is_still_an_error() -> None:
    text = "#id = (i) [S] -> (i) size (S)\nfunc @f(%n: index) {\n  %A = alloc()[%n, %n] : memref<4xf32, #id>\n  return\n}\n"
    with pytest.raises(affine.VerifyError, match="expected 0, got 2"):
        affine.parse(text, "bad.mlir")


@pytest.mark.parametrize("path", SEED_FILES, ids=SEED_IDS)
def test_printed_seed_programs_compute_the_same(path: Path) -> None:
    module = affine.parse(path.read_text(), str(path))
    printed = affine.parse(affine.print_module(module), "<printed>")
    runnable = [f for f in module.functions() if _runnable(f)]
    for func in runnable:
        name = func.properties["sym_name"].value  # type: ignore[attr-defined]  # a StringAttr
        symbols = {
            k: (4,) * a.type.layout_map().num_symbols  # type: ignore[attr-defined]  # a memref (_runnable)
            for k, a in enumerate(func.regions[0].blocks[0].arguments)
        }
        result = check_equivalent(
            module, printed, f_entry=name, g_entry=name, seed=3, layout_symbols=symbols
        )
        assert result, result
    if path.name == "dropped_layouts.mlir":
        assert runnable  # the case this file exists for runs


@pytest.mark.mlir
@pytest.mark.parametrize("path", SEED_FILES, ids=SEED_IDS)
def test_mlir_opt_accepts_every_printed_seed_program(path: Path, mlir_opt: str) -> None:
    printed = affine.print_module(affine.parse(path.read_text(), str(path)))
    result = run_mlir_opt(mlir_opt, printed, "--verify-each")
    assert result.returncode == 0, result.stderr
