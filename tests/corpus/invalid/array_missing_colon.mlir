// ERROR: 3:25: expected ':' after dense array type
func.func @f() {
  "x.c"() {v = array<i32 1>} : () -> ()
  return
}
