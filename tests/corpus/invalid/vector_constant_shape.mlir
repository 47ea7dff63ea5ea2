// ERROR: 3:23: inferred shape of elements literal ([2]) does not match type ([8])
func.func @f() {
  %c = arith.constant dense<[1.0, 2.0]> : vector<8xf32>
  return
}
