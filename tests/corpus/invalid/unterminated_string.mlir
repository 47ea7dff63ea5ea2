// ERROR: 3:33: expected '"' in string literal
func.func @f() {
  "x.op"() {s = "abc} : () -> ()
  return
}
