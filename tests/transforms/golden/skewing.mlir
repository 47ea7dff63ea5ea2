// RUN: poly-opt %s --affine-loop-skew=skew-factors=1 --verify-diagnostics | FileCheck %s

// A[i][j] = A[i-1][j+1]: skewing j by i turns the (1, -1) distance into (1, 0).
// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK: #map1 = affine_map<(d0) -> (d0 + 7)>
// CHECK: affine.for [[I:%arg[0-9]+]] = 1 to 8 {
// CHECK-NEXT: affine.for [[J:%arg[0-9]+]] = #map([[I]]) to #map1([[I]]) {
// CHECK-NEXT: affine.load %arg0[[[I]] - 1, -[[I]] + [[J]] + 1]
func.func @skew(%A: memref<8x8xf32>) {
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%i - 1, %j + 1] : memref<8x8xf32>
      affine.store %v, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
