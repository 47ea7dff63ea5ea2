// ERROR: 3:26: custom op 'vector.reduction' expected ::mlir::vector::CombiningKind to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, maximumf, minimumf
func.func @f(%v: vector<8xf32>) {
  %b = vector.reduction <sum>, %v : vector<8xf32> into f32
  return
}
