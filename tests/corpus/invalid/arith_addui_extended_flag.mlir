// ERROR: 3:12: 'arith.addui_extended' op result #1 must be bool-like, but got 'i8'
func.func @f(%a: i64) {
  %s, %o = arith.addui_extended %a, %a : i64, i8
  return
}
