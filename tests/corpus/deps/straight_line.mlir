// Accesses outside loops: only depth 1, "true" when a store precedes an access of the same element.
func.func @straight(%A: memref<4xf32>, %c: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  affine.store %c, %A[%c1] : memref<4xf32>
  %v = affine.load %A[%c1] : memref<4xf32>
  %w = affine.load %A[%c2] : memref<4xf32>
  affine.store %v, %A[%c2] : memref<4xf32>
  return
}
