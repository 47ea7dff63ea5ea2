// ERROR: 3:8: 'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible
func.func @f(%a: f32) {
  %0 = arith.extf %a : f32 to f16
  return
}
