// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// Exact answers where mlir-opt over-approximates: the parity of 2i vs 2i + 1, the
// even distances of A[i mod 2], and 3i = 2j + 1 (rational solutions only).
func.func @parity(%A: memref<2xf32>, %C: memref<40xf32>, %c: f32) {
  affine.for %i = 0 to 20 {
    affine.store %c, %A[%i mod 2] : memref<2xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = [2, 18]}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 4 at depth 1 = false}}
    affine.store %c, %C[%i * 2] : memref<40xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 4 at depth 1 = false}}
    %v = affine.load %C[%i * 2 + 1] : memref<40xf32>
    // expected-remark@above {{dependence from 2 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 4 at depth 1 = false}}
  }
  return
}
func.func @rational(%A: memref<8xf32>, %c: f32) {
  affine.for %i = 0 to 2 {
    affine.store %c, %A[3 * %i] : memref<8xf32>
    // expected-remark@above {{dependence from 3 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 3 at depth 2 = false}}
    // expected-remark@above {{dependence from 3 to 4 at depth 1 = false}}
  }
  affine.for %j = 0 to 1 {
    %v = affine.load %A[2 * %j + 1] : memref<8xf32>
    // expected-remark@above {{dependence from 4 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 4 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 4 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 4 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 4 to 4 at depth 1 = false}}
    // expected-remark@above {{dependence from 4 to 4 at depth 2 = false}}
  }
  return
}
