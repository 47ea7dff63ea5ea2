// ERROR: 3:23: expected attribute value
func.func @f(%n: index) {
  affine.for %i = 0 to max affine_map<(d0) -> (d0)>(%n) {
  }
  return
}
