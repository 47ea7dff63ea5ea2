// ERROR: 3:22: element type bitwidth must be a multiple of 8
func.func @f() {
  "x.c"() {v = array<i12: 1, 2>} : () -> ()
  return
}
