// As guarded_store.mlir without the guard: a distance-5 RAW from the store to the load.
func.func @noguard(%A: memref<16xf32>, %c: f32) {
  affine.for %i = 0 to 10 {
    affine.store %c, %A[%i + 5] : memref<16xf32>
    %w = affine.load %A[%i] : memref<16xf32>
  }
  return
}
