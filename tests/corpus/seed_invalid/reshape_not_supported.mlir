// ERROR: 4:9: the seed operation 'reshape' has no modern equivalent that this reader produces
// Original problem: seeds/002 'reshape' (and 'view') describe ops that modern MLIR replaced; the reader refuses them.
func @reshape(%D: memref<16x?xf32>) {
  %DR = reshape %D : memref<16x?xf32>
  return
}
