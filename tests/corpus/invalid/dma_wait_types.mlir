// ERROR: 3:3: expected tag to be of memref type
func.func @f(%t: memref<1xi32>, %n: index) {
  affine.dma_wait %t[%n], %n : i32
  return
}
