// ERROR: 3:3: 'scf.while' op expects a non-empty block
func.func @f() {
  scf.while : () -> () {
  ^bb0:
  } do {
  ^bb0:
  }
  return
}
