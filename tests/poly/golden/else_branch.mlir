// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// The else branch runs where the condition fails: even i store A[i], odd i read A[i - 1].
// mlir-opt 22 gives the else branch the then-branch's condition and says "false" here.
func.func @ifelse(%A: memref<12xf32>, %c: f32) {
  affine.for %i = 1 to 11 {
    affine.if affine_set<(d0) : (d0 mod 2 == 0)>(%i) {
      affine.store %c, %A[%i] : memref<12xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = [1, 1]}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    } else {
      %v = affine.load %A[%i - 1] : memref<12xf32>
      // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
    }
  }
  return
}
