// ERROR: 3:28: expected '"' in string literal
func.func @f() {
  %0 = frob" () : () -> i32
  return
}
