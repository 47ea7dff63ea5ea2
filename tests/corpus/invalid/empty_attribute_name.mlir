// ERROR: 3:13: expected valid attribute name
func.func @f() {
  "x.op"() {"" = 1 : i32} : () -> ()
  return
}
