// affine.parallel: multi-dimensional, reductions, steps, max/min bound groups.
func.func @par(%A: memref<100x100xf32>, %lo: index, %N: index) -> (f32, f32) {
  %r:2 = affine.parallel (%i, %j) = (0, 0) to (100, 100) reduce ("addf", "maximumf") -> (f32, f32) {
    %a = affine.load %A[%i, %j] : memref<100x100xf32>
    affine.yield %a, %a : f32, f32
  }
  affine.parallel (%i) = (max(0, %lo)) to (min(%N, 100)) step (4) {
    affine.parallel (%j) = (%i) to (%i + 4) {
      %a = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %a, %A[%j, %i] : memref<100x100xf32>
    }
  }
  affine.parallel (%i, %j) = (0, max(%lo, 2)) to (min(%N floordiv 2, 50), 100) step (2, 5) {
  }
  return %r#0, %r#1 : f32, f32
}
