// ERROR: 3:9: expected named operation to have at least 1 result
func.func @f() {
  %pair:0 = "x.two"() : () -> (i8, i8)
  return
}
