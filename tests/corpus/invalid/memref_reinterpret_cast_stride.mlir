// ERROR: 3:8: expected result type with stride = 8 instead of 4 in dim = 0
func.func @f(%m: memref<?xf32>) {
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [8, 1] : memref<?xf32> to memref<4x4xf32>
  return
}
