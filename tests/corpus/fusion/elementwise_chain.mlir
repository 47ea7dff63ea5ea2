// Element-wise chain: B = 2 * A (B private), C = B + A.
// scale: 64=N
func.func @chain(%A: memref<64xf32>, %C: memref<64xf32>) {
  %B = memref.alloc() : memref<64xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xf32>
    %m = arith.mulf %a, %two : f32
    affine.store %m, %B[%i] : memref<64xf32>
  }
  affine.for %j = 0 to 64 {
    %b = affine.load %B[%j] : memref<64xf32>
    %a = affine.load %A[%j] : memref<64xf32>
    %s = arith.addf %b, %a : f32
    affine.store %s, %C[%j] : memref<64xf32>
  }
  memref.dealloc %B : memref<64xf32>
  return
}
