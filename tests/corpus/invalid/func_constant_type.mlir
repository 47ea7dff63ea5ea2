// ERROR: 6:8: 'func.constant' op reference to function with mismatched type
func.func @g(%a: i32) {
  return
}
func.func @f() {
  %g = func.constant @g : () -> ()
  return
}
