// ERROR: 4:25: expected ':'
func.func @f(%n: i1) {
  scf.while : () -> () {
    scf.condition(%n) %n
  } do {
    scf.yield
  }
  return
}
