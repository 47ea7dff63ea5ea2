// ERROR: 3:8: slice along dimension 0 runs out-of-bounds: 9 >= 8
func.func @f(%m: memref<8x8xf32>) {
  %0 = memref.subview %m[4, 0] [6, 8] [1, 1] : memref<8x8xf32> to memref<6x8xf32, strided<[8, 1], offset: 32>>
  return
}
