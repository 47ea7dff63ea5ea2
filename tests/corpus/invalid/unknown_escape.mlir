// ERROR: 3:21: unknown escape in string literal
func.func @f() {
  "x.op"() {s = "abc\q"} : () -> ()
  return
}
