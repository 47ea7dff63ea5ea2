// ERROR: 3:8: 'affine.apply' op operand #0 must be variadic of index, but got 'i32'
func.func @f(%a: i32) {
  %0 = "affine.apply"(%a) <{map = affine_map<(d0) -> (d0 + 1)>}> : (i32) -> index
  return
}
