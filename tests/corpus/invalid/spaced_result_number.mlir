// ERROR: 3:26: invalid SSA value result number
func.func @f(%a: i32) -> i32 {
  %r = arith.addi %a, %a #w : i32
  return %r : i32
}
