// ERROR: 3:28: expected either integer or `:` post `to` in FileLineColRange
func.func @f() {
  return loc("a.c":1:2 to 3)
}
