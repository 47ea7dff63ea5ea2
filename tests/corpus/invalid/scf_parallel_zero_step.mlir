// ERROR: 4:3: 'scf.parallel' op constant step operand must be positive
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c0) {
  }
  return
}
