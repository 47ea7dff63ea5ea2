// Tiles copied into a fast buffer with DMA, used, then the next tile overwrites the buffer.
func.func @dma(%A: memref<64xf32>, %B: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  affine.for %t = 0 to 4 {
    affine.dma_start %A[%t * 16], %buf[%c0], %tag[%c0], %c16 : memref<64xf32>, memref<16xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[%c0], %c16 : memref<1xi32>
    affine.for %i = 0 to 16 {
      %v = affine.load %buf[%i] : memref<16xf32, 1>
      affine.store %v, %B[%t * 16 + %i] : memref<64xf32>
    }
  }
  memref.dealloc %buf : memref<16xf32, 1>
  memref.dealloc %tag : memref<1xi32>
  return
}
