// ERROR: 3:8: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
func.func @f(%a: i32) {
  %0 = "arith.addf"(%a, %a) : (i32, i32) -> i32
  return
}
