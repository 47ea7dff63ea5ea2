// ERROR: 3:3: 'scf.for' op operand #1 must be signless integer or index, but got 'f32'
func.func @f(%x: f32, %n: index) {
  "scf.for"(%n, %x, %n) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, f32, index) -> ()
  return
}
