// ERROR: 3:17: unterminated string literal
func.func @f() {
  "x.op"() {s = "abc} : () -> ()
  return
}
