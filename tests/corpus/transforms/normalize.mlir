// Loops to normalize: a stepped constant range, bounds over an outer loop and a symbol,
// a non-affine use of the induction variable, and a single-iteration loop.
func.func @normalize(%A: memref<100xf32>, %I: memref<100xi32>, %N: index) {
  affine.for %i = 2 to 50 step 3 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to min affine_map<(d0)[s0] -> (d0 + 10, s0)>(%i)[%N] step 2 {
      %w = affine.load %A[%j] : memref<100xf32>
      %c = arith.index_cast %j : index to i32
      affine.store %c, %I[%j] : memref<100xi32>
      affine.store %w, %A[%i + %j] : memref<100xf32>
    }
  }
  affine.for %i = 7 to 8 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  return
}
