// affine.parallel: a matrix-vector product with an "addf" reduction, a 2-D parallel loop
// with a step, max/min bound groups, and a "maximumf" reduction over the whole matrix.
// scale: 32=M 24=N 31=M-1
func.func @parallel_reduce(%A: memref<32x24xf32>, %x: memref<24xf32>, %y: memref<32xf32>, %B: memref<32x24xf32>, %mx: memref<1xf32>) {
  affine.parallel (%i) = (0) to (32) {
    %s = affine.parallel (%j) = (0) to (24) reduce ("addf") -> (f32) {
      %a = affine.load %A[%i, %j] : memref<32x24xf32>
      %xv = affine.load %x[%j] : memref<24xf32>
      %p = arith.mulf %a, %xv : f32
      affine.yield %p : f32
    }
    affine.store %s, %y[%i] : memref<32xf32>
  }
  affine.parallel (%i, %j) = (max(0, 1), 0) to (min(31, 32), 24) step (1, 2) {
    %a = affine.load %A[%i, %j] : memref<32x24xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %B[%i, %j] : memref<32x24xf32>
  }
  %m = affine.parallel (%i, %j) = (0, 0) to (32, 24) reduce ("maximumf") -> (f32) {
    %a = affine.load %A[%i, %j] : memref<32x24xf32>
    affine.yield %a : f32
  }
  affine.store %m, %mx[0] : memref<1xf32>
  return
}
