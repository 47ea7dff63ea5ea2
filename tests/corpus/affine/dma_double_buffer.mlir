// A DMA double-buffered loop as -affine-pipeline-data-transfer produces it.
#mod2 = affine_map<(d0) -> (d0 mod 2)>
#next = affine_map<(d0) -> ((d0 + 1) mod 2)>
func.func @pipelined(%src: memref<512x32xf32>, %out: memref<512x32xf32>) {
  %c0 = arith.constant 0 : index
  %num = arith.constant 32 : index
  %buf = memref.alloc() : memref<2x32xf32, 1>
  %tag = memref.alloc() : memref<2x1xi32>
  affine.dma_start %src[0, 0], %buf[0, 0], %tag[0, 0], %num : memref<512x32xf32>, memref<2x32xf32, 1>, memref<2x1xi32>
  affine.for %i = 1 to 512 {
    affine.dma_start %src[%i, 0], %buf[%i mod 2, 0], %tag[%i mod 2, 0], %num : memref<512x32xf32>, memref<2x32xf32, 1>, memref<2x1xi32>
    %p = affine.apply affine_map<(d0) -> (d0 - 1)>(%i)
    affine.dma_wait %tag[%p mod 2, 0], %num : memref<2x1xi32>
    affine.for %j = 0 to 32 {
      %v = affine.load %buf[%p mod 2, %j] : memref<2x32xf32, 1>
      affine.store %v, %out[%p, %j] : memref<512x32xf32>
    }
  }
  affine.dma_wait %tag[1, 0], %num : memref<2x1xi32>
  affine.for %j = 0 to 32 {
    %v = affine.load %buf[1, %j] : memref<2x32xf32, 1>
    affine.store %v, %out[511, %j] : memref<512x32xf32>
  }
  memref.dealloc %tag : memref<2x1xi32>
  memref.dealloc %buf : memref<2x32xf32, 1>
  return
}
