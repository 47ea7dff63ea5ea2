// transpose: B = alpha * A^T, the rows of A written down the columns of B (not PolyBench).
// scale: 64=N 48=M
func.func @transpose(%A: memref<64x48xf32>, %B: memref<48x64xf32>) {
  %alpha = arith.constant 1.5 : f32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      %a = affine.load %A[%i, %j] : memref<64x48xf32>
      %s = arith.mulf %alpha, %a : f32
      affine.store %s, %B[%j, %i] : memref<48x64xf32>
    }
  }
  return
}
