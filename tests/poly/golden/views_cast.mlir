// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// A memref.cast to dynamic sizes keeps its source's strides: B[r, c] is A[r, c], so the read
// of B[i - 1, j + 2] meets the write of A[i, j] two columns to the left one row later
// (distance (1, -2)), not anywhere in the buffer. mlir-opt 22 compares SSA values only.
func.func @views_cast(%A: memref<6x6xi32>) {
  %B = memref.cast %A : memref<6x6xi32> to memref<?x?xi32>
  affine.for %i = 1 to 6 {
    affine.for %j = 0 to 4 {
      %v = affine.load %B[%i - 1, %j + 2] : memref<?x?xi32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 3 = false}}
      affine.store %v, %A[%i, %j] : memref<6x6xi32>
      // expected-remark@above {{dependence from 1 to 0 at depth 1 = [1, 1][-2, -2]}}
      // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 3 = false}}
    }
  }
  return
}
