// ERROR: 3:32: custom op 'affine.for' expected step to be representable as a positive signed integer
func.func @f() {
  affine.for %i = 0 to 10 step -2 {
  }
  return
}
