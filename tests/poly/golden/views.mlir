// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// Accesses through views with static layouts touch known elements of the buffer they view:
// the subview row i is A[i + 2, *] (read in the same iteration), the collapsed A[8i + 17] is
// A[i + 2, 1] (never written). mlir-opt 22 compares SSA values and says "false" for all.
func.func @views(%A: memref<8x8xf32>, %v: f32) {
  %s = memref.subview %A[2, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 16>>
  %c = memref.collapse_shape %A [[0, 1]] : memref<8x8xf32> into memref<64xf32>
  %b = memref.alloc() : memref<64xi8>
  %c0 = arith.constant 0 : index
  %w = memref.view %b[%c0][] : memref<64xi8> to memref<64xi8>
  affine.for %i = 0 to 4 {
    affine.store %v, %s[%i, 0] : memref<4x8xf32, strided<[8, 1], offset: 16>>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = true}}
    // expected-remark@above {{dependence from 0 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 2 at depth 2 = false}}
    %x = affine.load %A[%i + 2, 0] : memref<8x8xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 2 = false}}
    %y = affine.load %c[%i * 8 + 17] : memref<64xf32>
    // expected-remark@above {{dependence from 2 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 2 = false}}
  }
  return
}
