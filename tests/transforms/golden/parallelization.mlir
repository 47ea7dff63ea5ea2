// RUN: poly-opt %s --affine-parallelize --verify-diagnostics | FileCheck %s

// gemm (PolyBench): i and j are parallel, k carries the accumulation into C.
// CHECK: affine.parallel (%arg3) = (0) to (20) {
// CHECK: affine.for %arg4 = 0 to 28 {
// CHECK-NEXT: affine.parallel (%arg5) = (0) to (24) {
func.func @gemm(%C: memref<20x24xf32>, %A: memref<20x28xf32>, %B: memref<28x24xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 24 {
      %c = affine.load %C[%i, %j] : memref<20x24xf32>
      %cb = arith.mulf %c, %beta : f32
      affine.store %cb, %C[%i, %j] : memref<20x24xf32>
    }
    // expected-remark@below {{loop not parallelized: it carries the RAW dependence from affine.store at}}
    affine.for %k = 0 to 28 {
      affine.for %j = 0 to 24 {
        %a = affine.load %A[%i, %k] : memref<20x28xf32>
        %aa = arith.mulf %alpha, %a : f32
        %b = affine.load %B[%k, %j] : memref<28x24xf32>
        %p = arith.mulf %aa, %b : f32
        %c = affine.load %C[%i, %j] : memref<20x24xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<20x24xf32>
      }
    }
  }
  return
}
