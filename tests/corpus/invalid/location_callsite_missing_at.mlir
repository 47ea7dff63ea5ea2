// ERROR: 3:26: expected 'at' in callsite location
func.func @f() {
  return loc(callsite("a" "b"))
}
