// ERROR: 5:14: expected '(' with the dynamic sizes after 'alloc' (seed grammar: alloc(%dims)[%symbols] : memref-type)
// Original problem: seeds/002 'reshape': `alloc <16x?xf32, ...>(%N)[%N]` lacks `: memref`.
#lmapD = (i, j)[S0] -> (i, j) size (16, S0)
func @reshape(%N: index) {
  %D = alloc <16x?xf32, #lmapD, hbm>(%N)[%N]
  return
}
