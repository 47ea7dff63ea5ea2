// ERROR: 3:8: 'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'f64' should match successor input type #0 'f32'
func.func @f(%go: i1, %v: f64) {
  %r = scf.while : () -> f64 {
    scf.condition(%go) %v : f64
  } do {
  ^bb0(%w: f32):
    scf.yield
  }
  return
}
