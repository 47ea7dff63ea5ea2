// ERROR: 3:8: 'scf.while' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs
func.func @f(%go: i1, %n: index) {
  %r = scf.while (%a = %n) : (index) -> index {
    scf.condition(%go) %a : index
  } do {
  ^bb0(%b: index):
    scf.yield
  }
  return
}
