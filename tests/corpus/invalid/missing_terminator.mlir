// ERROR: 3:8: block with no terminator, has 'arith.addi'
func.func @f(%a: i32) {
  %0 = arith.addi %a, %a : i32
}
