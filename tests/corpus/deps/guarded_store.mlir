// The store runs only for i >= 6 and writes A[11..15]; the load reads A[0..9]: no dependence.
func.func @guard(%A: memref<16xf32>, %c: f32) {
  affine.for %i = 0 to 10 {
    affine.if affine_set<(d0) : (d0 - 6 >= 0)>(%i) {
      affine.store %c, %A[%i + 5] : memref<16xf32>
    }
    %w = affine.load %A[%i] : memref<16xf32>
  }
  return
}
