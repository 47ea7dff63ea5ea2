// ERROR: 3:16: elements literal type must have static shape
func.func @f() {
  "x.c"() {v = dense<7> : tensor<?xi32>} : () -> ()
  return
}
