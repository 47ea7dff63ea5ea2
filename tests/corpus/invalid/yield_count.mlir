// ERROR: 4:5: 'affine.yield' op parent of yield must have same number of results as the yield operands
func.func @f(%x: f32) {
  %r = affine.for %i = 0 to 4 iter_args(%a = %x) -> (f32) {
    affine.yield
  }
  return
}
