// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// for i in [0, 10), j in [i + 1, 10): A[j] -= A[i]. The distance components are coupled
// ({ [d1, d2] : d1 > 0 and 0 < d2 <= 9 - d1 }); the remark shows each one's exact range.
func.func @tri(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 10 {
      %a = affine.load %A[%i] : memref<10xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 2 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 2 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 2 at depth 3 = false}}
      %b = affine.load %A[%j] : memref<10xf32>
      // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 2 at depth 1 = [1, 8][0, 0]}}
      // expected-remark@above {{dependence from 1 to 2 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 2 at depth 3 = true}}
      %d = arith.subf %b, %a : f32
      affine.store %d, %A[%j] : memref<10xf32>
      // expected-remark@above {{dependence from 2 to 0 at depth 1 = [1, 8][1, 8]}}
      // expected-remark@above {{dependence from 2 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 2 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 2 to 1 at depth 1 = [1, 8][0, 0]}}
      // expected-remark@above {{dependence from 2 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 2 to 1 at depth 3 = false}}
      // expected-remark@above {{dependence from 2 to 2 at depth 1 = [1, 8][0, 0]}}
      // expected-remark@above {{dependence from 2 to 2 at depth 2 = false}}
      // expected-remark@above {{dependence from 2 to 2 at depth 3 = false}}
    }
  }
  return
}
