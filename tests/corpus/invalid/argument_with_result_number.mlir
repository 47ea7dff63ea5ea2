// ERROR: 3:16: result number not allowed in argument list
func.func @f() {
  affine.for %i#0 = 0 to 4 {
  }
  return
}
