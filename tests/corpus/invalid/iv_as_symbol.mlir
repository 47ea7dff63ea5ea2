// ERROR: 4:5: 'affine.for' op operand cannot be used as a symbol
func.func @f() {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to %i {
    }
  }
  return
}
