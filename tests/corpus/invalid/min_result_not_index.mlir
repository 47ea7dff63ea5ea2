// ERROR: 3:8: 'affine.min' op result #0 must be index, but got 'i64'
func.func @f(%i: index) {
  %0 = "affine.min"(%i) <{map = affine_map<(d0) -> (d0, 8)>}> : (index) -> i64
  return
}
