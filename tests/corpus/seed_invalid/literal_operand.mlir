// ERROR: 4:24: expected SSA operand
// Original problem: seeds/002 'view': `"std.divi"(%n1, 2)` passes a literal as an operand.
func @view(%n1: i32) {
  %s1 = "std.divi"(%n1, 2) : (i32, i32) -> i32
  return
}
