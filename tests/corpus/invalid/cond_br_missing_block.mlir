// ERROR: 3:21: expected block name
func.func @f(%c: i1) {
  cf.cond_br %c, ^a, f32
^a:
  return
}
