// A[i][j] = A[j][i] over the whole square: anti-diagonal distances [1, 6][-6, -1].
func.func @transpose(%A: memref<7x7xf32>) {
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%j, %i] : memref<7x7xf32>
      affine.store %v, %A[%i, %j] : memref<7x7xf32>
    }
  }
  return
}
