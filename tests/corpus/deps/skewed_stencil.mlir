// A[i][j] = A[i-1][j+1]: the (1, -1) dependence that makes rectangular tiling illegal.
func.func @skew(%A: memref<8x8xf32>) {
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%i - 1, %j + 1] : memref<8x8xf32>
      affine.store %v, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
