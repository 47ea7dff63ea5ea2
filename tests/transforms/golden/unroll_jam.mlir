// RUN: poly-opt %s --affine-loop-unroll-jam=unroll-jam-factor=2 --verify-diagnostics | FileCheck %s

// The reduction on C is carried by k only, so i can be unrolled and jammed.
// CHECK: affine.for [[I:%arg[0-9]+]] = 0 to 4 step 2 {
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.for
// CHECK: affine.store
// CHECK: affine.apply #map([[I]])
// CHECK: affine.store
func.func @matmul(%A: memref<4x5xf32>, %B: memref<5x3xf32>, %C: memref<4x3xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 5 {
        %a = affine.load %A[%i, %k] : memref<4x5xf32>
        %b = affine.load %B[%k, %j] : memref<5x3xf32>
        %c = affine.load %C[%i, %j] : memref<4x3xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<4x3xf32>
      }
    }
  }
  return
}
