// ERROR: 3:24: expected operation name in quotes
func.func @f() -> i16 {
  %a = arith.constant 3 i16
  return %a : i16
}
