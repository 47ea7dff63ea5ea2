// ERROR: 4:27: expected ']' in affine map
func.func @f(%A: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %v = affine.load %A[%i : memref<4xf32>
  }
  return
}
