// ERROR: 5:7: expected operation name in quotes
// Original problem: seeds/002 'Memref Type': `<strong>alloc</strong>` is HTML markup and `<16x?xf32, #imapA>` lacks `memref`.
#imapA = (d0, d1) [s0] -> (d0 + s0, d1)
func @capture(%n: index, %o: index) {
  %A = <strong>alloc</strong> (%n)[%o] : <16x?xf32, #imapA>
  return
}
