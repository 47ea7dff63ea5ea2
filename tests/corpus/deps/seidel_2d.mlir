// Gauss-Seidel 2-D, in place, with a symbolic size N (instantiated by the oracle).
// oracle-args: 7
func.func @seidel(%A: memref<?x?xf32>, %N: index) {
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      %a = affine.load %A[%i - 1, %j] : memref<?x?xf32>
      %b = affine.load %A[%i, %j - 1] : memref<?x?xf32>
      %c = affine.load %A[%i, %j + 1] : memref<?x?xf32>
      %d = affine.load %A[%i + 1, %j] : memref<?x?xf32>
      %s1 = arith.addf %a, %b : f32
      %s2 = arith.addf %c, %d : f32
      %s = arith.addf %s1, %s2 : f32
      affine.store %s, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
