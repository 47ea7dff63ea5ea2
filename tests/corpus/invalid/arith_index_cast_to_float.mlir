// ERROR: 3:8: 'arith.index_cast' op result #0 must be signless-integer-like or memref of signless-integer, but got 'f32'
func.func @f(%a: index) {
  %0 = arith.index_cast %a : index to f32
  return
}
