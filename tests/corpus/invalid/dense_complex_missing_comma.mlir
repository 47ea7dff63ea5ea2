// ERROR: 3:24: expected ',' between complex elements
func.func @f() {
  "x.c"() {v = dense<(1 2)> : tensor<complex<f32>>} : () -> ()
  return
}
