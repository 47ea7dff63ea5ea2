// A transpose whose result is contiguous: strides [4, 1] on 6 x 4 are the identity layout.
func.func @f(%t: memref<4x6xf32, strided<[1, 4]>>) -> memref<6x4xf32> {
  %T = memref.transpose %t (i, j) -> (j, i) : memref<4x6xf32, strided<[1, 4]>> to memref<6x4xf32>
  return %T : memref<6x4xf32>
}
