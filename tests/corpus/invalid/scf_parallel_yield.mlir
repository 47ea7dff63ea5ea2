// ERROR: 5:3: 'scf.parallel' op expects body to terminate with 'scf.reduce'
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.yield
  }
  return
}
