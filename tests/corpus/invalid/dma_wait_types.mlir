// ERROR: 3:19: use of value '%t' expects different type than prior uses: 'i32' vs 'memref<1xi32>'
func.func @f(%t: memref<1xi32>, %n: index) {
  affine.dma_wait %t[%n], %n : i32
  return
}
