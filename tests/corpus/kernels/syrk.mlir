// syrk (PolyBench): lower triangle of C = alpha * A * A^T + beta * C.
// scale: 24=N 20=M
func.func @syrk(%C: memref<24x24xf32>, %A: memref<24x20xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %c = affine.load %C[%i, %j] : memref<24x24xf32>
      %cb = arith.mulf %c, %beta : f32
      affine.store %cb, %C[%i, %j] : memref<24x24xf32>
    }
    affine.for %k = 0 to 20 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %a = affine.load %A[%i, %k] : memref<24x20xf32>
        %aa = arith.mulf %alpha, %a : f32
        %b = affine.load %A[%j, %k] : memref<24x20xf32>
        %p = arith.mulf %aa, %b : f32
        %c = affine.load %C[%i, %j] : memref<24x24xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<24x24xf32>
      }
    }
  }
  return
}
