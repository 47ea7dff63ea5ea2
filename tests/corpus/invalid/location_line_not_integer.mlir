// ERROR: 3:18: expected integer line number in FileLineColRange
func.func @f() {
  return loc("a":x:1)
}
