// Step-2 loop: the store A[i] and the load A[i+1] never meet; the store A[i] and load
// A[i + 2] do, at distance 2 (one iteration of the step-2 loop).
func.func @steps(%A: memref<24xf32>, %c: f32) {
  affine.for %i = 0 to 20 step 2 {
    affine.store %c, %A[%i] : memref<24xf32>
    %v = affine.load %A[%i + 1] : memref<24xf32>
    %w = affine.load %A[%i + 2] : memref<24xf32>
  }
  return
}
