func.func @spin(%flag: i1) {
  scf.while : () -> () {
    scf.condition(%flag)
  } do {
    scf.yield
  }
  return
}
