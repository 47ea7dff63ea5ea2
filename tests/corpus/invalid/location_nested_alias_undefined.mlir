// ERROR: 3:26: undefined symbol alias id 'later'
func.func @f() {
  return loc(fused[#later])
}
#later = loc("a.c":1:1)
