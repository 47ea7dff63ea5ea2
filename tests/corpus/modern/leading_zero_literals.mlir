// Decimal literals may have leading zeros (they are not octal).
#shift = affine_map<(d0) -> (d0 + 010)>
func.func @f(%i: index) -> (i32, index) {
  %c = arith.constant 024 : i32
  %j = affine.apply #shift(%i)
  "x.t"() {a = array<i32: 007>, d = dense<[08, 09]> : tensor<2xi8>} : () -> ()
  return %c, %j : i32, index
}
