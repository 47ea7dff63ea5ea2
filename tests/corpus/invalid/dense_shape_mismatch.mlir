// ERROR: 3:23: inferred shape of elements literal ([3]) does not match type ([2])
func.func @f() {
  %0 = arith.constant dense<[1, 2, 3]> : tensor<2xi32>
  return
}
