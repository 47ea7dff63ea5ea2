// ERROR: 3:3: 'affine.if' op region #0 should have no arguments
func.func @f(%i: index) {
  affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
  ^bb0(%x: index):
    affine.yield
  }
  return
}
