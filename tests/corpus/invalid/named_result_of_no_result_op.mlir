// ERROR: 3:3: cannot name an operation with no results
func.func @f() {
  %v = "x.sink"() : () -> ()
  return
}
