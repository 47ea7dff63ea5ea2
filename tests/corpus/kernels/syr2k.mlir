// syr2k (PolyBench): lower triangle of C = alpha * (A * B^T + B * A^T) + beta * C.
// scale: 24=N 20=M
func.func @syr2k(%C: memref<24x24xf32>, %A: memref<24x20xf32>, %B: memref<24x20xf32>) {
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
        %ajk = affine.load %A[%j, %k] : memref<24x20xf32>
        %bik = affine.load %B[%i, %k] : memref<24x20xf32>
        %bjk = affine.load %B[%j, %k] : memref<24x20xf32>
        %aik = affine.load %A[%i, %k] : memref<24x20xf32>
        %t1 = arith.mulf %ajk, %alpha : f32
        %t2 = arith.mulf %t1, %bik : f32
        %t3 = arith.mulf %bjk, %alpha : f32
        %t4 = arith.mulf %t3, %aik : f32
        %t5 = arith.addf %t2, %t4 : f32
        %c = affine.load %C[%i, %j] : memref<24x24xf32>
        %s = arith.addf %c, %t5 : f32
        affine.store %s, %C[%i, %j] : memref<24x24xf32>
      }
    }
  }
  return
}
