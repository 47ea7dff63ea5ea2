// RUN: poly-opt %s --split-input-file --test-loop-permutation=permutation-map=1,0 --verify-diagnostics | FileCheck %s

// A triangular band (j from i + 1): the loops are regenerated and the bounds swap roles.
// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @tri
// CHECK: affine.for [[J:%arg[0-9]+]] = 1 to 10 {
// CHECK-NEXT: affine.for [[I:%arg[0-9]+]] = 0 to #map([[J]]) {
// CHECK-NEXT: affine.load %arg0[[[I]]]
func.func @tri(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 10 {
      %a = affine.load %A[%i] : memref<10xf32>
      %b = affine.load %A[%j] : memref<10xf32>
      %d = arith.subf %b, %a : f32
      affine.store %d, %A[%j] : memref<10xf32>
    }
  }
  return
}

// -----

// A[i][j] = A[j][i] over the whole square: permuting would reverse a dependence.
// CHECK-LABEL: func.func @transpose
// CHECK: affine.for %arg1 = 0 to 7 {
func.func @transpose(%A: memref<7x7xf32>) {
  // expected-remark@below {{loop band not permuted: it would reverse the RAW dependence}}
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%j, %i] : memref<7x7xf32>
      affine.store %v, %A[%i, %j] : memref<7x7xf32>
    }
  }
  return
}
