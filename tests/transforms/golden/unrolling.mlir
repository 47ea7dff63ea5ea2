// RUN: poly-opt %s --affine-loop-unroll=unroll-factor=2 --verify-diagnostics | FileCheck %s

// In-place 1-D stencil (always legal to unroll): two bodies per iteration, no cleanup.
// CHECK: affine.for [[I:%arg[0-9]+]] = 1 to 11 step 2 {
// CHECK: affine.store
// CHECK: affine.apply
// CHECK: affine.store
// CHECK-NOT: affine.store
func.func @stencil(%A: memref<12xf32>) {
  affine.for %i = 1 to 11 {
    %l = affine.load %A[%i - 1] : memref<12xf32>
    %r = affine.load %A[%i + 1] : memref<12xf32>
    %s = arith.addf %l, %r : f32
    affine.store %s, %A[%i] : memref<12xf32>
  }
  return
}
