// Parallel loops with reductions, as -affine-parallelize="parallel-reductions=1" writes them.
func.func @dot(%x: memref<1024xf32>, %y: memref<1024xf32>) -> f32 {
  %zero = arith.constant 0.000000e+00 : f32
  %r = affine.parallel (%i) = (0) to (1024) reduce ("addf") -> (f32) {
    %a = affine.load %x[%i] : memref<1024xf32>
    %b = affine.load %y[%i] : memref<1024xf32>
    %p = arith.mulf %a, %b : f32
    affine.yield %p : f32
  }
  %m = affine.parallel (%i, %j) = (0, 0) to (32, 32) reduce ("maximumf") -> (f32) {
    %a = affine.load %x[%i * 32 + %j] : memref<1024xf32>
    affine.yield %a : f32
  }
  %s = arith.addf %r, %m : f32
  return %s : f32
}
