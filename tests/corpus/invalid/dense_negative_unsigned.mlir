// ERROR: 3:27: expected unsigned integer elements, but parsed negative value
func.func @f() {
  "x.c"() {v = dense<[3, -3]> : tensor<2xui16>} : () -> ()
  return
}
