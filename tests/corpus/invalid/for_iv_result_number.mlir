// ERROR: 3:16: result number not allowed in argument list
func.func @f() {
  affine.for %i#1 = 0 to 8 {
  }
  return
}
