// ERROR: 3:30: expected attribute value
func.func @f(%n: index) {
  affine.for %i = 0 to 8 step %n {
  }
  return
}
