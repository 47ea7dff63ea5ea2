// Two-array 2-D Jacobi stencil with a time loop.
func.func @jacobi_2d(%A: memref<64x64xf64>, %B: memref<64x64xf64>) {
  %fifth = arith.constant 2.000000e-01 : f64
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 63 {
      affine.for %j = 1 to 63 {
        %c = affine.load %A[%i, %j] : memref<64x64xf64>
        %l = affine.load %A[%i, %j - 1] : memref<64x64xf64>
        %r = affine.load %A[%i, %j + 1] : memref<64x64xf64>
        %u = affine.load %A[%i - 1, %j] : memref<64x64xf64>
        %d = affine.load %A[%i + 1, %j] : memref<64x64xf64>
        %s0 = arith.addf %c, %l : f64
        %s1 = arith.addf %s0, %r : f64
        %s2 = arith.addf %s1, %u : f64
        %s3 = arith.addf %s2, %d : f64
        %v = arith.mulf %s3, %fifth : f64
        affine.store %v, %B[%i, %j] : memref<64x64xf64>
      }
    }
    affine.for %i = 1 to 63 {
      affine.for %j = 1 to 63 {
        %v = affine.load %B[%i, %j] : memref<64x64xf64>
        affine.store %v, %A[%i, %j] : memref<64x64xf64>
      }
    }
  }
  return
}
