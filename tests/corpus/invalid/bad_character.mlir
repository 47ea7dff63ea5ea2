// ERROR: 3:3: unexpected character
func.func @f() {
  ` 
  return
}
