// ERROR: 3:16: parsed zero elements, but type ('tensor<f32>') expected at least 1
func.func @f() {
  "x.c"() {v = dense<> : tensor<f32>} : () -> ()
  return
}
