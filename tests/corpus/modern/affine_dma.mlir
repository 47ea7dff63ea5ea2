// affine.dma_start / affine.dma_wait (plain and strided) and memref.dma_start / dma_wait.
func.func @dma(%src: memref<256x1024xf32>, %buf: memref<32x32xf32, 1>, %tag: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %num = arith.constant 1024 : index
  %stride = arith.constant 1024 : index
  %per = arith.constant 32 : index
  affine.for %i = 0 to 256 step 32 {
    affine.for %j = 0 to 1024 step 32 {
      affine.dma_start %src[%i, %j], %buf[0, 0], %tag[(%i floordiv 32) mod 2], %num, %stride, %per : memref<256x1024xf32>, memref<32x32xf32, 1>, memref<2xi32>
      affine.dma_wait %tag[(%i floordiv 32) mod 2], %num : memref<2xi32>
      affine.dma_start %buf[0, 0], %src[%i, %j], %tag[%c1], %num : memref<32x32xf32, 1>, memref<256x1024xf32>, memref<2xi32>
      affine.dma_wait %tag[%c1], %num : memref<2xi32>
    }
  }
  memref.dma_start %src[%c0, %c0], %buf[%c0, %c0], %num, %tag[%c0] : memref<256x1024xf32>, memref<32x32xf32, 1>, memref<2xi32>
  memref.dma_wait %tag[%c0], %num : memref<2xi32>
  memref.dma_start %src[%c0, %c0], %buf[%c0, %c0], %num, %tag[%c1], %stride, %per : memref<256x1024xf32>, memref<32x32xf32, 1>, memref<2xi32>
  memref.dma_wait %tag[%c1], %num : memref<2xi32>
  // a trailing comma and no stride operands (MLIR's trailing operand list may be empty)
  affine.dma_start %src[%c0, %c0], %buf[0, 0], %tag[%c0], %num,
      : memref<256x1024xf32>, memref<32x32xf32, 1>, memref<2xi32>
  return
}
