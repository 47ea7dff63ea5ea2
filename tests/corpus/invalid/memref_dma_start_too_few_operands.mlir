// ERROR: 3:3: 'memref.dma_start' op expected at least 6 operands
func.func @f(%src: memref<4x4xf32>, %i: index) {
  "memref.dma_start"(%src, %i, %i, %i) : (memref<4x4xf32>, index, index, index) -> ()
  return
}
