// A column-major strided layout: distinct logical indices stay distinct elements.
func.func @strided(%A: memref<4x5xf32, strided<[1, 4]>>) {
  affine.for %i = 1 to 4 {
    affine.for %j = 0 to 5 {
      %v = affine.load %A[%i - 1, %j] : memref<4x5xf32, strided<[1, 4]>>
      affine.store %v, %A[%i, %j] : memref<4x5xf32, strided<[1, 4]>>
    }
  }
  return
}
