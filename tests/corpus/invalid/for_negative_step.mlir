// ERROR: 3:32: expected step to be representable as a positive signed integer
func.func @f() {
  affine.for %i = 0 to 10 step 0 {
  }
  return
}
