// ERROR: 2:17: expected non-function type
func.func @f(%a: f33) {
  return
}
