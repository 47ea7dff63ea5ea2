// ERROR: 3:22: integer literal not valid for specified type
func.func @f() {
  %g = func.constant 4 : () -> ()
  return
}
