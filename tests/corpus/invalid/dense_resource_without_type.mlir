// ERROR: 3:39: expected ':'
func.func @f() {
  "x.c"() {v = dense_resource<weights>} : () -> ()
  return
}
