// ERROR: 3:8: 'arith.bitcast' op operand type 'i16' and result type 'f32' are cast incompatible
func.func @f(%a: i16) {
  %0 = arith.bitcast %a : i16 to f32
  return
}
