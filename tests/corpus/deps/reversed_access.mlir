// A[9 - i] read, A[i] written: dependences in both directions meet in the middle.
func.func @reverse(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[-%i + 9] : memref<10xf32>
    affine.store %v, %A[%i] : memref<10xf32>
  }
  return
}
