// ERROR: 2:18: integer bitwidth is limited to 16777215 bits
func.func @f(%a: i20000000) {
  return
}
