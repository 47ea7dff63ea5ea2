// ERROR: 3:22: expected i1 type for 'true' or 'false' values
func.func @f() {
  "x.c"() {v = dense<false> : tensor<4xi32>} : () -> ()
  return
}
