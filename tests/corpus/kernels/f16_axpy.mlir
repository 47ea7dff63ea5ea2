// y = a * x + y in half precision, with a float32 accumulation of y's sum of squares.
// scale: 64=N
func.func @f16_axpy(%x: memref<64xf16>, %y: memref<64xf16>, %norm: memref<1xf32>) {
  %alpha = arith.constant 1.5 : f16
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 64 {
    %xv = affine.load %x[%i] : memref<64xf16>
    %yv = affine.load %y[%i] : memref<64xf16>
    %p = arith.mulf %alpha, %xv : f16
    %s = arith.addf %p, %yv : f16
    affine.store %s, %y[%i] : memref<64xf16>
  }
  %n = affine.for %i = 0 to 64 iter_args(%acc = %zero) -> (f32) {
    %yv = affine.load %y[%i] : memref<64xf16>
    %e = arith.extf %yv : f16 to f32
    %sq = arith.mulf %e, %e : f32
    %a = arith.addf %acc, %sq : f32
    affine.yield %a : f32
  }
  affine.store %n, %norm[0] : memref<1xf32>
  return
}
