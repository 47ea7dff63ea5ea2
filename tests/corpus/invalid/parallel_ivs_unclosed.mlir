// ERROR: 3:26: expected ')' in argument list
func.func @f() {
  affine.parallel (%i, %j ] = (0, 0) to (4, 4) {
  }
  return
}
