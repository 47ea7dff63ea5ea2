// seidel-2d (PolyBench): T in-place Gauss-Seidel sweeps of a 9-point stencil.
// scale: 20=N 19=N-1 6=T
func.func @seidel_2d(%A: memref<20x20xf64>) {
  %nine = arith.constant 9.0 : f64
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 19 {
      affine.for %j = 1 to 19 {
        %a00 = affine.load %A[%i - 1, %j - 1] : memref<20x20xf64>
        %a01 = affine.load %A[%i - 1, %j] : memref<20x20xf64>
        %a02 = affine.load %A[%i - 1, %j + 1] : memref<20x20xf64>
        %a10 = affine.load %A[%i, %j - 1] : memref<20x20xf64>
        %a11 = affine.load %A[%i, %j] : memref<20x20xf64>
        %a12 = affine.load %A[%i, %j + 1] : memref<20x20xf64>
        %a20 = affine.load %A[%i + 1, %j - 1] : memref<20x20xf64>
        %a21 = affine.load %A[%i + 1, %j] : memref<20x20xf64>
        %a22 = affine.load %A[%i + 1, %j + 1] : memref<20x20xf64>
        %s1 = arith.addf %a00, %a01 : f64
        %s2 = arith.addf %s1, %a02 : f64
        %s3 = arith.addf %s2, %a10 : f64
        %s4 = arith.addf %s3, %a11 : f64
        %s5 = arith.addf %s4, %a12 : f64
        %s6 = arith.addf %s5, %a20 : f64
        %s7 = arith.addf %s6, %a21 : f64
        %s8 = arith.addf %s7, %a22 : f64
        %v = arith.divf %s8, %nine : f64
        affine.store %v, %A[%i, %j] : memref<20x20xf64>
      }
    }
  }
  return
}
