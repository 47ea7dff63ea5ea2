// ERROR: 3:8: custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f64'
func.func @f(%a: f64) {
  %0 = arith.cmpi sle, %a, %a : f64
  return
}
