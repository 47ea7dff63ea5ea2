// ERROR: 3:40: `dense_resource` expected a shaped type
func.func @f() {
  "x.c"() {v = dense_resource<weights> : f32} : () -> ()
  return
}
