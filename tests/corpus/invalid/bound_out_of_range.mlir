// ERROR: 3:24: integer constant out of range for attribute
func.func @f() {
  affine.for %i = 0 to 18446744073709551616 {
  }
  return
}
