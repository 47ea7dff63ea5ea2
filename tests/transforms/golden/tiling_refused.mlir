// RUN: poly-opt %s --affine-loop-tile=tile-sizes=2,2 --verify-diagnostics | FileCheck %s

// A[i][j] = A[i-1][j+1]: the (1, -1) dependence makes rectangular tiling illegal.
// CHECK: affine.for %arg1 = 1 to 8 {
// CHECK-NEXT: affine.for %arg2 = 0 to 7 {
// CHECK-NOT: step
func.func @skew(%A: memref<8x8xf32>) {
  // expected-remark@below {{with distance (1, -1)}}
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%i - 1, %j + 1] : memref<8x8xf32>
      affine.store %v, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
