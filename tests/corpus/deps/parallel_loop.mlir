// affine.parallel IVs count as common loops like affine.for IVs.
func.func @par(%A: memref<6x6xf32>) {
  affine.parallel (%i, %j) = (0, 1) to (6, 6) {
    %v = affine.load %A[%i, %j - 1] : memref<6x6xf32>
    affine.store %v, %A[%i, %j] : memref<6x6xf32>
  }
  return
}
