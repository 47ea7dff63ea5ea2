// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// A loop of step 0 (mlir-opt 22 accepts it) repeats its first iteration forever: the store
// to A[1] meets itself again at distance 0; the load of A[0] and the store never meet.
func.func @zero_step(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %i = 0 to 10 step 0 {
    %v = affine.load %A[%i] : memref<10xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    affine.store %v, %A[%i + 1] : memref<10xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = [0, 0]}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}
