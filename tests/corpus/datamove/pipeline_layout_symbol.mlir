// A DMA buffer whose layout has a symbol: the doubled buffer has no layout, so no operand.
func.func @f(%A: memref<4x6xf32>, %B: memref<4x6xf32>) {
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %buf = memref.alloc()[%c2] : memref<6xf32, affine_map<(d0)[s0] -> (d0 + s0)>, 1>
  %tag = memref.alloc() : memref<1xi32>
  affine.for %i = 0 to 4 {
    affine.dma_start %A[%i, 0], %buf[0], %tag[0], %c6 : memref<4x6xf32>, memref<6xf32, affine_map<(d0)[s0] -> (d0 + s0)>, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %c6 : memref<1xi32>
    affine.for %j = 0 to 6 {
      %v = affine.load %buf[%j] : memref<6xf32, affine_map<(d0)[s0] -> (d0 + s0)>, 1>
      affine.store %v, %B[%i, %j] : memref<4x6xf32>
    }
  }
  return
}
