// ERROR: 3:20: expected 2 operand types but had 1
func.func @f(%a: i32) {
  "x.op"(%a, %a) : (i32) -> ()
  return
}
