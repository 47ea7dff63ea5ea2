// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// A buffer allocated in a loop is a new buffer in each iteration: nothing is carried by %i
// (mlir-opt 22 reports the stores and the load of %m[0] as carried by %i at distances [1, 15]).
func.func @local_buffers(%v: f32) {
  affine.for %i = 0 to 16 {
    %m = memref.alloc() : memref<4xf32>
    affine.for %j = 0 to 4 {
      affine.store %v, %m[%j] : memref<4xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = true}}
    }
    %x = affine.load %m[0] : memref<4xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}
