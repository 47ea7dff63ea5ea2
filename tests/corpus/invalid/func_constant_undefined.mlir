// ERROR: 3:8: 'func.constant' op reference to undefined function 'g'
func.func @f() {
  %g = constant @g : () -> ()
  return
}
