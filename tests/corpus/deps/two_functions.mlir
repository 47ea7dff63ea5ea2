// Accesses are numbered over the whole module; pairs in different functions never depend.
func.func @first(%A: memref<6xf32>) {
  affine.for %i = 1 to 6 {
    %v = affine.load %A[%i - 1] : memref<6xf32>
    affine.store %v, %A[%i] : memref<6xf32>
  }
  return
}
func.func @second(%A: memref<6xf32>) {
  affine.for %i = 0 to 5 {
    %v = affine.load %A[%i + 1] : memref<6xf32>
    affine.store %v, %A[%i] : memref<6xf32>
  }
  return
}
