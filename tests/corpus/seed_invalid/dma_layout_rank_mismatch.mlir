// ERROR: 3:17: memref layout mismatch between rank and affine map: 2 != 1
// Original problem: seeds/002 'dma_start': a 2-d memref is given the 1-d layout map `(d0) -> (d0)`.
func @dma(%src: memref<40 x 8 x vector<16xf32>, (d0) -> (d0), 0>) {
  return
}
