// ERROR: 3:8: custom op 'scf.parallel' number of operands and types do not match: got 0 operands and 1 types
func.func @f(%lo: index, %hi: index) {
  %r = scf.parallel (%i) = (%lo) to (%hi) step (%lo) -> i64 {
  }
  return
}
