// ERROR: 4:3: redefinition of SSA value '%0'
func.func @f(%a: i32) {
  %0 = arith.addi %a, %a : i32
  %0 = arith.addi %a, %a : i32
  return
}
