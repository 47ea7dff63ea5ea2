// ERROR: 4:1: expected '}' in region
func.func @f() {
  affine.for %i = 0 to 4 {
