// ERROR: 3:14: use of undeclared SSA value name
func.func @f() {
  cf.br ^bb1(%z : i32)
^bb1(%a: i32):
  return
}
