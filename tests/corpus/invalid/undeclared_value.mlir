// ERROR: 3:10: use of undeclared SSA value name
func.func @f() -> i32 {
  return %x : i32
}
