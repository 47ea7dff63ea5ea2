// ERROR: 3:34: tensor literal is invalid; ranks are not consistent between elements
func.func @f() {
  "x.c"() {v = dense<[[1, 2], [3]]> : tensor<2x2xi32>} : () -> ()
  return
}
