// An already tiled loop: t in steps of 4, i in [t, t + 4) with a min against the size.
func.func @timetiled(%A: memref<14xf32>) {
  affine.for %t = 0 to 13 step 4 {
    affine.for %i = affine_map<(d0) -> (d0)>(%t) to min affine_map<(d0) -> (d0 + 4, 13)>(%t) {
      %v = affine.load %A[%i] : memref<14xf32>
      affine.store %v, %A[%i + 1] : memref<14xf32>
    }
  }
  return
}
