// ERROR: 3:9: expected integer number of results
func.func @f() {
  %pair:n = "x.two"() : () -> (i8, i8)
  return
}
