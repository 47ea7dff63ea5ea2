// ERROR: 3:8: 'arith.select' op operand #0 must be bool-like, but got 'i8'
func.func @f(%c: i8, %a: f32, %b: f32) -> f32 {
  %r = "arith.select"(%c, %a, %b) : (i8, f32, f32) -> f32
  return %r : f32
}
