// RUN: poly-opt %s --affine-loop-interchange --verify-diagnostics | FileCheck %s

// C[i][j] += A[i][k] * B[k][j]: k moves inside i so that j, innermost, walks B and C
// contiguously.
// CHECK: affine.for %arg3 = 0 to 4 {
// CHECK-NEXT: affine.for %arg4 = 0 to 5 {
// CHECK-NEXT: affine.for %arg5 = 0 to 3 {
// CHECK-NEXT: affine.load %arg0[%arg3, %arg4]
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
