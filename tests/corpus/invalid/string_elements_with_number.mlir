// ERROR: 3:24: expected string token, got 7
func.func @f() {
  "x.table"() {names = dense<["first", 7]> : tensor<2x!x.text>} : () -> ()
  return
}
