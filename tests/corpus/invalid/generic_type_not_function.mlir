// ERROR: 3:21: expected function type
func.func @f() {
  %v = "x.make"() : i64
  return
}
