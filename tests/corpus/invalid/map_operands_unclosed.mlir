// ERROR: 3:57: expected ')' in operand list
func.func @f(%a: index, %b: index) -> index {
  %r = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%a %b)
  return %r : index
}
