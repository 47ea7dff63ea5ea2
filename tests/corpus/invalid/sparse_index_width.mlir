// ERROR: 3:16: expected shape ([2, 3]); inferred shape of indices literal ([1, 3]); inferred shape of values literal ([1])
func.func @f() {
  "x.t"() {a = sparse<[[0, 0, 0]], [5]> : tensor<2x3xi32>} : () -> ()
  return
}
