// Tiled-looking bounds with max/min: i in [max(0, 4t - 1), min(13, 4t + 5)).
func.func @maxmin(%A: memref<16xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = max affine_map<(d0) -> (0, d0 * 4 - 1)>(%t) to min affine_map<(d0) -> (13, d0 * 4 + 5)>(%t) {
      %v = affine.load %A[%i + 1] : memref<16xf32>
      affine.store %v, %A[%i] : memref<16xf32>
    }
  }
  return
}
