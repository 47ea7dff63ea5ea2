"""The FileCheck helper accepts what it should and, just as important, rejects what it should."""

from __future__ import annotations

import pytest
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
