// A[i + j] written, A[i + j + 1] read: many pairs, distances on a line.
func.func @coupled(%A: memref<16xf32>) {
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 5 {
      %v = affine.load %A[%i + %j + 1] : memref<16xf32>
      affine.store %v, %A[%i + %j] : memref<16xf32>
    }
  }
  return
}
