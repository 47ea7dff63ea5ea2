// A[i + N] written, A[i] read for i < N: never the same element (N instantiated as 6).
// oracle-args: 6
func.func @symoff(%A: memref<?xf32>, %N: index, %c: f32) {
  affine.for %i = 0 to %N {
    affine.store %c, %A[%i + symbol(%N)] : memref<?xf32>
    %v = affine.load %A[%i] : memref<?xf32>
  }
  return
}
