// Tiles of A move into a fast buffer (memory space 1) with a strided affine.dma_start,
// are scaled there, and move back into B with a strided memref.dma_start.
// scale: 32=N
func.func @dma_tiles(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  %buf = memref.alloc() : memref<8x8xf32, 1>
  %tag = memref.alloc() : memref<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %ld = arith.constant 32 : index
  %two = arith.constant 2.0 : f32
  affine.for %ii = 0 to 32 step 8 {
    affine.for %jj = 0 to 32 step 8 {
      affine.dma_start %A[%ii, %jj], %buf[0, 0], %tag[0], %c64, %ld, %c8 : memref<32x32xf32>, memref<8x8xf32, 1>, memref<2xi32>
      affine.dma_wait %tag[0], %c64 : memref<2xi32>
      affine.for %i = 0 to 8 {
        affine.for %j = 0 to 8 {
          %v = affine.load %buf[%i, %j] : memref<8x8xf32, 1>
          %w = arith.mulf %v, %two : f32
          affine.store %w, %buf[%i, %j] : memref<8x8xf32, 1>
        }
      }
      memref.dma_start %buf[%c0, %c0], %B[%jj, %ii], %c64, %tag[%c1], %ld, %c8 : memref<8x8xf32, 1>, memref<32x32xf32>, memref<2xi32>
      memref.dma_wait %tag[%c1], %c64 : memref<2xi32>
    }
  }
  memref.dealloc %tag : memref<2xi32>
  memref.dealloc %buf : memref<8x8xf32, 1>
  return
}
