// A[i][j] += A[i-1][j+1], in place: a dependence of distance (1, -1), so rectangular tiles
// are illegal until j is skewed by i.
func.func @stencil(%A: memref<?x?xf32>, %N: index) {
  affine.for %i = 1 to %N {
    affine.for %j = 0 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      %v = affine.load %A[%i - 1, %j + 1] : memref<?x?xf32>
      %w = affine.load %A[%i, %j] : memref<?x?xf32>
      %s = arith.addf %v, %w : f32
      affine.store %s, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
