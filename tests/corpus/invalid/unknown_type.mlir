// ERROR: 2:18: expected non-function type
func.func @f(%a: f33) {
  return
}
