// ERROR: 3:3: type mismatch for bb argument #0 of successor #1
func.func @f(%c: i1, %x: f32) {
  cf.cond_br %c, ^a, ^b(%x : f32)
^a:
  return
^b(%y: f64):
  return
}
