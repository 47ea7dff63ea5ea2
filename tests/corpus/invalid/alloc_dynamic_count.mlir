// ERROR: 3:8: 'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1
func.func @f(%n: index) {
  %0 = memref.alloc() : memref<?xf32>
  return
}
