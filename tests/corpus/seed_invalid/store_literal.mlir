// ERROR: 4:9: expected SSA value to store (seed grammar: store %value, %memref[%indices] : memref-type)
// Original problem: seeds/002 module example: `store 0 to %C[%i, %j]` stores a literal.
func @multiply(%C: memref<100x50xf32>, %i: index, %j: index) {
  store 0 to %C[%i, %j] : memref<100x50xf32>
  return
}
