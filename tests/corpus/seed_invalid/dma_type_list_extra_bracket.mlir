// ERROR: 10:24: expected non-function type
// Original problem: seeds/002 'dma_start': `memref<1 x i32>, (d0) -> (d0), 4>` has a stray `>`.
func @dma(%src: memref<40 x 8 x vector<16xf32>>, %dst: memref<2 x 4 x vector<16xf32>, 2>, %i: index, %j: index, %k: index, %l: index) {
  %size = constant 32 : index
  %tag = alloc() : memref<1 x i32, (d0) -> (d0), 4>
  %idx = constant 0 : index
  dma_start %src[%i, %j], %dst[%k, %l], %size, %tag[%idx] :
     memref<40 x 8 x vector<16xf32>>,
     memref<2 x 4 x vector<16xf32>, 2>,
     memref<1 x i32>, (d0) -> (d0), 4>
  return
}
