// ERROR: 3:8: expected result type to be 'memref<4x8xf32, strided<[8, 1], offset: 16>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x8xf32>'
func.func @f(%m: memref<8x8xf32>) {
  %0 = memref.subview %m[2, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32>
  return
}
