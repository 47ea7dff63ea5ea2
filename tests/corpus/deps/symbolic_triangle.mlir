// A triangular nest with a symbolic bound: i < N, j < i.
// oracle-args: 6
func.func @symtri(%A: memref<?x?xf32>, %N: index) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %v = affine.load %A[%j, %i] : memref<?x?xf32>
      affine.store %v, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
