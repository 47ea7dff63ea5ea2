// ERROR: 3:22: expected integer or float type, got: 'vector<2xi8>'
func.func @f() {
  "x.c"() {v = array<vector<2xi8>: 1>} : () -> ()
  return
}
