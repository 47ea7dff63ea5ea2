// ERROR: 3:27: expected operation name in quotes
func.func @f() {
  affine.for %i = 0 to 4 {
