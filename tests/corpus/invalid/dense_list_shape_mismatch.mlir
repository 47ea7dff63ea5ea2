// ERROR: 3:16: inferred shape of elements literal ([2]) does not match type ([3])
func.func @f() {
  "x.c"() {v = dense<[1, 2]> : tensor<3xi32>} : () -> ()
  return
}
