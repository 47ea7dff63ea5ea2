// A DMA transfer loop in the seed syntax: dma_start / dma_wait with affine subscripts,
// a named fast memory space and a tag memref; becomes affine.dma_start / dma_wait.
func @dma_loop(%A: memref<256xf32>, %B: memref<256xf32>) {
  %num = constant 32 : index
  %zero = constant 0 : index
  %buf = alloc() : memref<32xf32, vmem>
  %tag = alloc() : memref<1xi32>
  for %i = 0 to 256 step 32 {
    dma_start %A[%i], %buf[%zero], %num, %tag[%zero] : memref<256xf32>, memref<32xf32, vmem>, memref<1xi32>
    dma_wait %tag[%zero], %num : memref<1xi32>
    for %j = 0 to 32 {
      %v = load %buf[%j] : memref<32xf32, vmem>
      %w = addf %v, %v : f32
      store %w, %B[%i + %j] : memref<256xf32>
    }
  }
  dealloc %buf : memref<32xf32, vmem>
  dealloc %tag : memref<1xi32>
  return
}
