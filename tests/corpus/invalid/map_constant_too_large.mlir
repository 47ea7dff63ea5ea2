// ERROR: 3:46: constant too large for index
func.func @f(%i: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 + 9223372036854775808)>(%i)
  return %0 : index
}
