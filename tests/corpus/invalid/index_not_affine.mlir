// ERROR: 5:10: 'affine.load' op operand cannot be used as a dimension id
func.func @f(%A: memref<4xf32>, %B: memref<4xindex>) {
  affine.for %i = 0 to 4 {
    %j = affine.load %B[%i] : memref<4xindex>
    %v = affine.load %A[%j] : memref<4xf32>
  }
  return
}
