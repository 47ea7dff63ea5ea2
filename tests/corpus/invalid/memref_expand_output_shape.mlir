// ERROR: 3:8: 'memref.expand_shape' op invalid output shape provided at pos 1
func.func @f(%m: memref<12xf32>) {
  %0 = memref.expand_shape %m [[0, 1]] output_shape [3, 5] : memref<12xf32> into memref<3x4xf32>
  return
}
