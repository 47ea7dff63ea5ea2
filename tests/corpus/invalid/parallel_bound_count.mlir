// ERROR: 3:41: custom op 'scf.parallel' expected 2 operands
func.func @f(%lo: index, %hi: index) {
  scf.parallel (%i, %j) = (%lo, %lo) to (%hi) step (%lo, %lo) {
  }
  return
}
