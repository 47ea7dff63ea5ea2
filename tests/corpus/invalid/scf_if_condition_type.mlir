// ERROR: 3:3: 'scf.if' op operand #0 must be 1-bit signless integer, but got 'i8'
func.func @f(%c: i8) {
  "scf.if"(%c) ({
    scf.yield
  }, {
  }) : (i8) -> ()
  return
}
