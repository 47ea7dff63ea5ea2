// ERROR: 3:23: custom op 'scf.while' expected as many input types as operands (expected 1 got 0)
func.func @f(%n: index) {
  scf.while (%a = %n) : () -> () {
    scf.condition(%a)
  } do {
    scf.yield
  }
  return
}
