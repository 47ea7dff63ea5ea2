"""Every loop-transformation pass on every kernel: the output verifies, reads back, is
accepted by mlir-opt 22, and computes what the input computed; bands left alone get a
remark with the reason. mlir-opt 22's known miscompiles are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, run_mlir_opt
from dep_oracle import oracle_inputs

import affine
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from affine.syntax.printer import print_module
from transforms import registry
from transforms.registry import PassContext

KERNELS = sorted((CORPUS / "kernels").glob("*.mlir"))
NESTS = sorted((CORPUS / "deps").glob("*.mlir"))

# (pass, options): default and explicit forms of every pass.
CONFIGURATIONS = [
    ("affine-loop-tile", ""),
    ("affine-loop-tile", "tile-sizes=4,3"),
    ("affine-loop-tile", "tile-size=5 separate"),
    ("test-loop-permutation", "permutation-map=1,0"),
    ("test-loop-permutation", "permutation-map=2,0,1"),
    ("affine-loop-interchange", ""),
    ("affine-loop-skew", "skew-factors=1"),
    ("affine-loop-unroll", ""),
    ("affine-loop-unroll", "unroll-factor=3 cleanup-unroll"),
    ("affine-loop-unroll", "unroll-factor=-1 unroll-full-threshold=4"),
    ("affine-loop-unroll-jam", "unroll-jam-factor=2"),
    ("affine-loop-unroll-jam", "unroll-jam-factor=3"),
    ("affine-parallelize", ""),
    ("affine-parallelize", "parallel-reductions max-nested=1"),
    ("affine-register-tile", "vector-bits=512 registers=32"),
    ("affine-register-tile", "rows=3 vectors=2 vector-bits=128"),
    ("affine-register-tile", "rows=2 vectors=1 vector-bits=256 fma=0 distribute=0"),
]


def run_pass(module: Module, name: str, options: str = "") -> tuple[Module, list[str]]:
    entry = registry.lookup(name)
    assert entry is not None, name
    context = PassContext(print_op_on_diagnostic=False)
    result = registry.parse_options(entry.load(), options).run(module, context)
    return result, [d.render() for d in context.diagnostics]


def runnable(module: Module) -> bool:
    return "dma" not in print_module(module)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=lambda c: f"{c[0]}{{{c[1]}}}")
@pytest.mark.parametrize("path", KERNELS + NESTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_pass_preserves_results(path: Path, config: tuple[str, str]) -> None:
    text = path.read_text()
    module = affine.parse(text, str(path))
    # symbolic sizes run with the file's argument values (arrays as large as they touch)
    inputs = oracle_inputs(module, text) if "oracle-args" in text else []
    before = print_module(module)
    result, remarks = run_pass(module, *config)
    assert print_module(module) == before, "the input must not change"
    text = print_module(result)
    again = affine.parse(text, "<result>")
    assert print_module(again) == text
    for remark in remarks:
        assert ": remark: " in remark.splitlines()[0]
    for f, g in zip(module.functions(), result.functions()):
        if f.properties.get("sym_visibility") is not None:
            continue
        outcome = check_equivalent(f, g, *inputs, backend="interp")
        assert outcome, (config, text, outcome)


@pytest.mark.mlir
@pytest.mark.parametrize("config", CONFIGURATIONS, ids=lambda c: f"{c[0]}{{{c[1]}}}")
def test_mlir_opt_accepts_every_output(mlir_opt: str, config: tuple[str, str]) -> None:
    outputs = []
    for path in KERNELS + NESTS:
        result, _ = run_pass(affine.parse(path.read_text(), str(path)), *config)
        outputs.append(print_module(result))
    check = run_mlir_opt(mlir_opt, "\n// -----\n".join(outputs), "--split-input-file")
    assert check.returncode == 0, check.stderr[:2000]


def test_tiling_across_a_minus_one_dependence_is_refused() -> None:
    # mlir-opt 22 tiles A[i][j] = A[i-1][j+1] (distance (1, -1)) and changes its result.
    module = affine.parse((CORPUS / "deps" / "skewed_stencil.mlir").read_text(), "s.mlir")
    for name, options in (
        ("affine-loop-tile", "tile-sizes=2,2"),
        ("affine-loop-unroll-jam", "unroll-jam-factor=2"),
    ):
        result, remarks = run_pass(module, name, options)
        assert print_module(result) == print_module(module)
        assert "with distance (1, -1)" in remarks[0]


def test_seidel_is_not_tiled_rectangularly_but_skewing_makes_it_tileable() -> None:
    text = (CORPUS / "kernels" / "seidel_2d.mlir").read_text()
    module = affine.parse(text, "seidel.mlir")
    result, remarks = run_pass(module, "affine-loop-tile", "tile-sizes=4,4,4")
    assert print_module(result) == print_module(module)
    assert remarks and "would reverse" in remarks[0]


SEMI_AFFINE = """
func.func @semi(%A: memref<64x64xf32>, %n: index) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i * symbol(%n), %j + 1] : memref<64x64xf32>
      affine.store %v, %A[%i, %j * symbol(%n)] : memref<64x64xf32>
    }
  }
  return
}
"""


def test_semi_affine_subscripts_are_not_tiled_or_permuted_blindly() -> None:
    # mlir-opt 22 treats a failed dependence check (semi-affine subscripts) as "no
    # dependence" and tiles or permutes; the over-approximated accesses here forbid both.
    module = affine.parse(SEMI_AFFINE, "semi.mlir")
    for name, options in (
        ("affine-loop-tile", "tile-sizes=2,2"),
        ("test-loop-permutation", "permutation-map=1,0"),
    ):
        result, remarks = run_pass(module, name, options)
        assert print_module(result) == print_module(module)
        assert remarks and "dependence" in remarks[0]


def test_triangular_bands_are_tiled_and_permuted() -> None:
    module = affine.parse((CORPUS / "kernels" / "syrk.mlir").read_text(), "syrk.mlir")
    for name, options in (
        ("affine-loop-tile", "tile-sizes=4,4"),
        ("test-loop-permutation", "permutation-map=1,0"),
    ):
        result, remarks = run_pass(module, name, options)
        assert print_module(result) != print_module(module), (name, remarks)
        assert check_equivalent(module.functions()[0], result.functions()[0])


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=lambda c: f"{c[0]}{{{c[1]}}}")
def test_function_with_a_zero_step_loop_is_left_alone(config: tuple[str, str]) -> None:
    """A loop of step 0 never ends (mlir-opt 22 accepts one): every pass leaves its function
    as it was, with a remark, rather than computing trip counts or dependences for it."""
    text = (
        "func.func @f(%A: memref<8x8xf32>) {\n"
        "  affine.for %i = 0 to 8 {\n"
        "    affine.for %j = 0 to 8 step 0 {\n"
        "      %v = affine.load %A[%i, %j] : memref<8x8xf32>\n"
        "      affine.store %v, %A[%j, %i] : memref<8x8xf32>\n"
        "    }\n"
        "  }\n"
        "  return\n"
        "}\n"
    )
    module = affine.parse(text, "zero.mlir")
    result, remarks = run_pass(module, *config)
    assert print_module(result) == print_module(module)
    assert any("function not transformed: loop with step 0" in r for r in remarks)


def test_loop_allocating_its_own_buffer_is_parallelized() -> None:
    """Each iteration writes a buffer it allocated itself: nothing is carried (as mlir-opt's
    affine-parallelize also finds)."""
    text = (
        "func.func @f(%v: f32) {\n"
        "  affine.for %i = 0 to 16 {\n"
        "    %m = memref.alloc() : memref<4xf32>\n"
        "    affine.store %v, %m[0] : memref<4xf32>\n"
        "  }\n"
        "  return\n"
        "}\n"
    )
    result, remarks = run_pass(affine.parse(text, "local.mlir"), "affine-parallelize")
    assert "affine.parallel (%arg1) = (0) to (16)" in print_module(result), remarks


@pytest.mark.mlir
def test_unrolling_loops_whose_yield_permutes_iter_args(mlir_opt: str) -> None:
    # deriche's row filter yields (%y, %arg6, %x): each iteration's values move one place
    # along the iter_args. mlir-opt 22's -affine-loop-unroll (factor 3) wires the unrolled
    # copies and the remainder loop's inputs wrongly (all three from one result): its
    # output computes other results; ours keeps each copy's values where the yield put them
    path = CORPUS / "kernels" / "deriche.mlir"
    source = affine.parse(path.read_text(), str(path))
    ours, _ = run_pass(
        affine.parse(path.read_text(), str(path)), "affine-loop-unroll", "unroll-factor=3"
    )
    assert check_equivalent(source, ours)
    theirs = run_mlir_opt(
        mlir_opt,
        path.read_text(),
        "--pass-pipeline=builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))",
    )
    assert theirs.returncode == 0, theirs.stderr
    assert not check_equivalent(source, affine.parse(theirs.stdout))
