// ERROR: 4:16: expected '(' with the dynamic sizes after 'alloc' (seed grammar: alloc(%dims)[%symbols] : memref-type)
// Original problem: seeds/002 module example: `alloc memref<...>(%n)` does not follow the alloc grammar `alloc(...)[...] : memref-type`.
func @mul(%n: index) {
  %A_m = alloc memref<100x?xf32>(%n)
  return
}
