// RUN: poly-opt %s --split-input-file --affine-loop-tile --verify-diagnostics | FileCheck %s

// A 1024^3 product, 512 KiB cache: a long contiguous j inside 16x32 tiles of (i, k), i.e.
// the intra-tile order is i, k, j and the j loop is not tiled at all.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.for [[I:%arg[0-9]+]] = 0 to 1024 step 16 {
// CHECK-NEXT: affine.for [[K:%arg[0-9]+]] = 0 to 1024 step 32 {
// CHECK-NEXT: affine.for [[II:%arg[0-9]+]] = #map([[I]]) to #map1([[I]]) {
// CHECK-NEXT: affine.for [[KK:%arg[0-9]+]] = #map([[K]]) to #map2([[K]]) {
// CHECK-NEXT: affine.for [[J:%arg[0-9]+]] = 0 to 1024 {
// CHECK-NEXT: affine.load %arg0[[[II]], [[KK]]]
// CHECK-NEXT: affine.load %arg1[[[KK]], [[J]]]
func.func @matmul(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  // expected-remark@below {{loop band tiled: sizes 16, 1024, 32 for %i, %j, %k; intra-tile order %i, %k, %j}}
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      affine.for %k = 0 to 1024 {
        %a = affine.load %A[%i, %k] : memref<1024x1024xf32>
        %b = affine.load %B[%k, %j] : memref<1024x1024xf32>
        %c = affine.load %C[%i, %j] : memref<1024x1024xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<1024x1024xf32>
      }
    }
  }
  return
}
