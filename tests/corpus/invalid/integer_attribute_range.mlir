// ERROR: 3:23: integer constant out of range for attribute
func.func @f() {
  %c = arith.constant 300 : i8
  %u = arith.constant 70000 : ui16
  return
}
