// ERROR: 3:32: expected constant integer or floating point value
func.func @f() {
  affine.for %i = 0 to 8 step --2 {
  }
  return
}
