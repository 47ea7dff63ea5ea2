// ERROR: 3:8: operand #0 does not dominate this use
func.func @f(%a: i32) {
  %1 = arith.addi %0, %a : i32
  %0 = arith.addi %a, %a : i32
  return
}
