// ERROR: 3:8: 'affine.vector_load' op requires memref and vector types of the same elemental type
func.func @f(%A: memref<10x20xf32>, %i: index) {
  %b = affine.vector_load %A[%i, %i] : memref<10x20xf32>, vector<8xf64>
  return
}
