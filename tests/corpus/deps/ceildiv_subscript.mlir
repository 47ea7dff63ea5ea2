// A[i ceildiv 3] written, A[(i + 1) floordiv 3] read.
func.func @ceil(%A: memref<8xf32>) {
  affine.for %i = 0 to 18 {
    %v = affine.load %A[(%i + 1) floordiv 3] : memref<8xf32>
    affine.store %v, %A[%i ceildiv 3] : memref<8xf32>
  }
  return
}
