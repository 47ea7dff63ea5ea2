// ERROR: 3:21: custom op 'affine.for' expected 'to' between bounds
func.func @f() {
  affine.for %i = 0 until 10 {
  }
  return
}
