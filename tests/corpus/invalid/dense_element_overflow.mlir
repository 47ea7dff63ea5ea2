// ERROR: 3:26: integer constant out of range for type
func.func @f() {
  "x.c"() {v = dense<[1, 300]> : tensor<2xi8>} : () -> ()
  return
}
