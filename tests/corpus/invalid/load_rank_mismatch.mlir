// ERROR: 3:8: 'affine.load' op affine map num results must equal memref rank
func.func @f(%A: memref<4x4xf32>, %i: index) {
  %v = affine.load %A[%i] : memref<4x4xf32>
  return
}
