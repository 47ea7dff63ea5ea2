// ERROR: 3:14: region entry argument '%i' is already in use
func.func @f(%i: index) {
  affine.for %i = 0 to 8 {
  }
  return
}
