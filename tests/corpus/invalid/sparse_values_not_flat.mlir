// ERROR: 3:16: expected 1-d tensor for sparse element values
func.func @f() {
  "x.t"() {a = sparse<[[0, 0]], [[1]]> : tensor<2x3xi32>} : () -> ()
  return
}
