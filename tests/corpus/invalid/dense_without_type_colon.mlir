// ERROR: 3:29: expected ':'
func.func @f() {
  "x.c"() {v = dense<[1, 2]>  i8 : tensor<2xi8>} : () -> ()
  return
}
