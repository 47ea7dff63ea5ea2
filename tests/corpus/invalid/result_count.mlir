// ERROR: 3:3: operation defines 1 results but was provided 2 to bind
func.func @f(%a: i32) {
  %0, %1 = arith.addi %a, %a : i32
  return
}
