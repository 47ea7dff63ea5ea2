// ERROR: 3:16: expected '='
func.func @f() {
  affine.for %i   0 to 8 {
  }
  return
}
