// ERROR: 3:3: 'scf.while' op expects the 'before' region to terminate with 'scf.condition'
func.func @f(%go: i1) {
  scf.while : () -> () {
    "x.stop"() : () -> ()
  } do {
    scf.yield
  }
  return
}
