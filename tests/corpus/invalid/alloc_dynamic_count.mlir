// ERROR: 3:8: 'memref.alloc' op dimension operand count does not equal memref dynamic dimension count
func.func @f(%n: index) {
  %0 = memref.alloc() : memref<?xf32>
  return
}
