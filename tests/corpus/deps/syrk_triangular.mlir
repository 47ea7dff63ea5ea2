// syrk on the lower triangle: C[i][j] += A[i][k] * A[j][k] for j <= i.
func.func @syrk(%A: memref<6x4xf32>, %C: memref<6x6xf32>) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.for %k = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<6x4xf32>
        %b = affine.load %A[%j, %k] : memref<6x4xf32>
        %c = affine.load %C[%i, %j] : memref<6x6xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<6x6xf32>
      }
    }
  }
  return
}
