// ERROR: 3:16: sparse index #0 is not contained within the value shape, with index=[0, 4], and type='tensor<2x3xi32>'
func.func @f() {
  "x.t"() {a = sparse<[[0, 4]], [1]> : tensor<2x3xi32>} : () -> ()
  return
}
