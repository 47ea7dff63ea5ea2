// ERROR: 3:8: 'memref.collapse_shape' op collapsed dim size (10) must equal reassociation group size (12)
func.func @f(%m: memref<2x3x4xf32>) {
  %0 = memref.collapse_shape %m [[0], [1, 2]] : memref<2x3x4xf32> into memref<2x10xf32>
  return
}
