// ERROR: 3:50: custom op 'affine.parallel' invalid reduction value: "sum"
func.func @f() {
  %r = affine.parallel (%i) = (0) to (4) reduce ("sum") -> (f32) {
  }
  return
}
