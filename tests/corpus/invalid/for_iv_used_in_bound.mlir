// ERROR: 3:14: region entry argument '%i' is already in use
func.func @f() {
  affine.for %i = affine_map<(d0) -> (d0)>(%i) to 8 {
  }
  return
}
