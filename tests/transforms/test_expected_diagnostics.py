"""``--verify-diagnostics`` reads the annotations as mlir-opt does: blanks before ``@`` and
``{{``, ``@above``/``@below``/``@+N``, ``-re`` with ``{{regex}}`` parts, and the message
only has to contain the text."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

from transforms.cli import main

# The error is reported on the affine.for line: "custom op 'affine.for' upper loop bound
# affine map with multiple results requires 'min' prefix".
SOURCE = """\
func.func @f(%n: index) {{
  {annotation}
  affine.for %i = 0 to affine_map<()[s] -> (100, s + 1)>()[%n] {{
  }}
  return
}}
"""

ANNOTATIONS = [
    # (annotation, whether --verify-diagnostics accepts it)
    ("// expected-error@+1 {{requires 'min' prefix}}", True),
    ("// expected-error @+1 {{requires 'min' prefix}}", True),  # blank before @
    ("// expected-error@below{{requires 'min' prefix}}", True),
    ("// expected-error @+1 {{custom op 'affine.for' upper loop bound}}", True),
    ("// expected-error-re @+1 {{upper loop bound {{.*}} requires 'min'}}", True),
    ("// expected-error-re @+1 {{results requires '{{[a-z]+}}' prefix}}", True),
    ("// expected-error-re @+1 {{results requires '{{[0-9]+}}' prefix}}", False),
    ("// expected-error-re @+1 {{upper loop bound .* requires}}", False),  # '.' is literal
    ("// expected-error @+2 {{requires 'min' prefix}}", False),  # wrong line
    ("// expected-warning @+1 {{requires 'min' prefix}}", False),  # wrong severity
    ("// expected-error @unknown {{requires 'min' prefix}}", False),  # it has a location
]


@pytest.mark.parametrize(("annotation", "accepted"), ANNOTATIONS)
def test_annotations_are_read_as_mlir_opt_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], annotation: str, accepted: bool
) -> None:
    path = tmp_path / "annotated.mlir"
    path.write_text(SOURCE.format(annotation=annotation))
    status = main(["--verify-diagnostics", str(path)])
    assert (status == 0) is accepted, capsys.readouterr().err


@pytest.mark.mlir
def test_notes_are_mlir_opts(mlir_opt: str) -> None:
    """The golden file of notes (redefinitions, dominance, symbols) holds for mlir-opt too."""
    path = ROOT / "tests" / "affine" / "syntax" / "diagnostics" / "notes.mlir"
    result = subprocess.run(
        [
            mlir_opt,
            "--allow-unregistered-dialect",
            "--split-input-file",
            "--verify-diagnostics",
            path,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
