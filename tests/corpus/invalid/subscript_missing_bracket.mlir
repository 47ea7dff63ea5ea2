// ERROR: 4:28: expected ']'
func.func @f(%A: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %v = affine.load %A[%i : memref<4xf32>
  }
  return
}
