"""The reader and printer on the corpus: parse -> print -> parse gives the same IR, and
mlir-opt 22 accepts what we print and prints it exactly as it prints the input.

Corpus: every ``tests/corpus/**/*.mlir`` outside ``invalid``/``seed_invalid`` (modern MLIR,
the seed documents' examples in 2018-19 syntax, kernels).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, TESTS, run_mlir_opt

from affine import parse
from affine.ir.compare import ir_difference
from affine.syntax.printer import print_module

FILES = sorted(
    p for p in CORPUS.rglob("*.mlir") if not ({"invalid", "seed_invalid"} & set(p.parts))
) + sorted(TESTS.glob("**/golden/*.mlir"))


def _rel(path: Path) -> str:
    """The corpus path of an input (``golden/...`` paths start from tests/)."""
    return str(path.relative_to(CORPUS if CORPUS in path.parents else TESTS))


IDS = [_rel(p) for p in FILES]

# Byte-for-byte differences from mlir-opt's own print that are known and harmless (mlir-opt
# reads our text back to the same canonical print, checked by test_mlir_opt_reprints_the_same):
# - mlir-opt 22 prints `#ml_program.extern<T>` as an alias `#extern = #ml_program.extern`,
#   dropping T; we print the attribute in full.
# - ops without custom syntax here (bufferization, tensor) are printed in generic form.
KNOWN_STYLE_DIFFERENCES = {
    "modern/ml_program.mlir",
    "seed/mul_multiply.mlir",
    "seed/arithmetic.mlir",
    "seed/core_ops.mlir",
}


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _modern(path: Path):
    """The module read from ``path``; seed-syntax files go through one print first, since
    printing composes their layout compositions into the single map modern MLIR keeps."""
    module = parse(_read(path), str(path))
    if "seed" in path.parts:
        module = parse(print_module(module), "<modern print>")
    return module


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_parse_print_parse_is_stable(path: Path) -> None:
    module = _modern(path)
    text = print_module(module)
    again = parse(text, "<printed>")
    assert ir_difference(module, again) is None
    assert print_module(again) == text


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_generic_form_reads_back_to_the_same_ir(path: Path) -> None:
    module = _modern(path)
    generic = print_module(module, generic=True)
    again = parse(generic, "<generic>")
    assert ir_difference(module, again) is None
    assert print_module(again) == print_module(module)


def test_corpus_is_large_enough() -> None:
    assert len(FILES) >= 40, f"the round-trip corpus has only {len(FILES)} files"


@pytest.mark.mlir
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_mlir_opt_reprints_the_same(path: Path, mlir_opt: str) -> None:
    """mlir-opt accepts our pretty and generic prints, and its canonical print of them
    equals its canonical print of the input (for seed-syntax input, of our print)."""
    text = _read(path)
    ours = print_module(parse(text, str(path)))
    reference = run_mlir_opt(mlir_opt, text)
    if reference.returncode != 0:  # seed syntax: mlir-opt cannot read the original
        reference = run_mlir_opt(mlir_opt, ours)
    assert reference.returncode == 0, reference.stderr
    for printed in (ours, print_module(parse(text, str(path)), generic=True)):
        result = run_mlir_opt(mlir_opt, printed)
        assert result.returncode == 0, result.stderr
        assert result.stdout == reference.stdout


@pytest.mark.mlir
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_print_matches_mlir_opt_byte_for_byte(path: Path, mlir_opt: str) -> None:
    rel = _rel(path)
    if rel in KNOWN_STYLE_DIFFERENCES:
        pytest.skip("known style difference (see KNOWN_STYLE_DIFFERENCES)")
    ours = print_module(parse(_read(path), str(path)))
    assert run_mlir_opt(mlir_opt, ours).stdout == ours


MODERN = [p for p in FILES if "seed" not in p.parts]  # what mlir-opt itself reads


@pytest.mark.mlir
@pytest.mark.parametrize("path", MODERN, ids=[_rel(p) for p in MODERN])
def test_generic_print_of_the_input_is_mlir_opts(path: Path, mlir_opt: str) -> None:
    """The generic form shows every property, those a custom form leaves out or an
    attribute dictionary sets (``fastmath = #arith.fastmath<none>``) included."""
    if _rel(path) == "modern/ml_program.mlir":
        pytest.skip("mlir-opt 22 prints #ml_program.extern<T> without T")
    ours = print_module(parse(_read(path), str(path)), generic=True)
    assert ours == run_mlir_opt(mlir_opt, _read(path), "--mlir-print-op-generic").stdout


@pytest.mark.mlir
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_reads_mlir_opt_generic_output(path: Path, mlir_opt: str) -> None:
    """mlir-opt's --mlir-print-op-generic print of each file reads to the same IR."""
    if _rel(path) == "modern/ml_program.mlir":
        pytest.skip(
            "mlir-opt 22 prints #ml_program.extern<T> without T (see KNOWN_STYLE_DIFFERENCES)"
        )
    ours = print_module(parse(_read(path), str(path)))
    generic = run_mlir_opt(mlir_opt, ours, "--mlir-print-op-generic")
    assert generic.returncode == 0, generic.stderr
    assert print_module(parse(generic.stdout, "<mlir-opt generic>")) == ours
