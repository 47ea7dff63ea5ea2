// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// Two memref.get_global of one global are the same buffer: the load of B[i] reads what the
// store to A[i] wrote in the same iteration (mlir-opt 22 compares the SSA values and says
// "false" at depth 2). A reshape aliases its source as a view does.
memref.global "private" @g : memref<8xf32> = uninitialized
func.func @globals(%v: f32, %shape: memref<2xi32>) {
  %a = memref.get_global @g : memref<8xf32>
  %b = memref.get_global @g : memref<8xf32>
  %r = memref.reshape %a(%shape) : (memref<8xf32>, memref<2xi32>) -> memref<2x4xf32>
  affine.for %i = 0 to 8 {
    affine.store %v, %a[%i] : memref<8xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = true}}
    // expected-remark@above {{dependence from 0 to 2 at depth 1 = true}}
    %x = affine.load %b[%i] : memref<8xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 1 = false}}
  }
  %y = affine.load %r[0, 0] : memref<2x4xf32>
  // expected-remark@above {{dependence from 2 to 0 at depth 1 = false}}
  // expected-remark@above {{dependence from 2 to 1 at depth 1 = false}}
  // expected-remark@above {{dependence from 2 to 2 at depth 1 = false}}
  return
}
