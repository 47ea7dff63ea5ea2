// ERROR: 4:31: expected ']' in affine map
func.func @f(%A: memref<4x4xf32>, %i: index) {
  %p:2 = affine.delinearize_index %i into (4, 4) : index, index
  %v = affine.load %A[%p#0, %p#1] : memref<4x4xf32>
  return
}
