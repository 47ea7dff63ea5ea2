// ERROR: 3:8: 'arith.constant' op integer return type must be signless
func.func @f() {
  %0 = arith.constant 7 : ui8
  return
}
