"""The FileCheck helper accepts what it should and, just as important, rejects what it should."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_golden
from filecheck import CheckFailure, filecheck

OUTPUT = """\
func.func @f(%arg0: memref<8xf32>) {
  affine.for %arg1 = 0 to 8 {
    %0 = affine.load %arg0[%arg1] : memref<8xf32>
    affine.store %0, %arg0[%arg1] : memref<8xf32>
  }

  return
}
"""

# (checks, should pass)
CASES = [
    ("// CHECK: affine.for\n// CHECK: affine.store", True),
    ("// CHECK: affine.store\n// CHECK: affine.for", False),  # order matters
    (
        "// CHECK: affine.for [[IV:%arg[0-9]+]] = 0 to 8\n// CHECK-NEXT: affine.load %arg0[[[IV]]]",
        True,
    ),
    ("// CHECK: affine.for [[IV:%arg[0-9]+]] = 0 to 8\n// CHECK-NEXT: affine.store", False),
    ("// CHECK: affine.load\n// CHECK-SAME: memref<8xf32>", True),
    ("// CHECK: affine.load\n// CHECK-SAME: memref<9xf32>", False),
    ("// CHECK: affine.for\n// CHECK-NOT: affine.store\n// CHECK: return", False),
    ("// CHECK: affine.for\n// CHECK-NOT: affine.parallel\n// CHECK: return", True),
    ("// CHECK-DAG: affine.store\n// CHECK-DAG: affine.load\n// CHECK: return", True),
    ("// CHECK-DAG: affine.store\n// CHECK-DAG: affine.store\n// CHECK: return", False),
    ("// CHECK: {{affine\\.(load|store)}} %0, %arg0", True),
    ("// CHECK-LABEL: func.func @f\n// CHECK: return", True),
    ("// CHECK-LABEL: func.func @g", False),
    ("// CHECK: }\n// CHECK-EMPTY:\n// CHECK-NEXT: return", True),
    ("// CHECK: affine.for   %arg1 =  0", True),  # whitespace runs are flexible
    ("// CHECK: [[UNDEFINED]]", False),
    # CHECK-NOT looks only after the previous match: "affine.for" earlier on its line is fine
    ("// CHECK: affine.for %arg1\n// CHECK-NOT: affine.for\n// CHECK: return", True),
    ("// CHECK: affine.for\n// CHECK-NOT: %arg1 =\n// CHECK: return", False),
    ("// CHECK: affine.load\n// CHECK-NOT: store\n// CHECK-SAME: memref", True),
    ("// no directives at all", False),
]


@pytest.mark.parametrize(("checks", "passes"), CASES)
def test_filecheck(checks: str, passes: bool) -> None:
    if passes:
        filecheck(OUTPUT, checks)
    else:
        with pytest.raises(CheckFailure):
            filecheck(OUTPUT, checks)


def test_custom_prefix() -> None:
    filecheck(OUTPUT, "// GEN: affine.load\n// CHECK: nothing like this", prefix="GEN")


GOLDEN = """// RUN: poly-opt %s --affine-loop-unroll=unroll-factor=2 --verify-diagnostics | FileCheck %s
// CHECK: affine.for %arg1 = 0 to 8 step 2 {
func.func @f(%A: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
    affine.store %v, %A[%i] : memref<8xf32>
  }
  return
}
"""


def test_golden_file_passes(tmp_path: Path) -> None:
    path = tmp_path / "ok.mlir"
    path.write_text(GOLDEN)
    run_golden(path, GOLDEN.splitlines()[0].removeprefix("// RUN: "))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("step 2", "step 4"), "CHECK: affine.for %arg1 = 0 to 8 step 4"),
        (
            ("  affine.for %i", "  // expected-remark@below {{never said}}\n  affine.for %i"),
            "never",
        ),
    ],
)
def test_golden_file_fails_on_a_wrong_expectation(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    path = tmp_path / "wrong.mlir"
    text = GOLDEN.replace(*edit)
    path.write_text(text)
    with pytest.raises(AssertionError, match=re.escape(message)):
        run_golden(path, text.splitlines()[0].removeprefix("// RUN: "))
