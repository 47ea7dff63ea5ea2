// ERROR: 4:9: expected ':' and type for SSA operand
func.func @f() {
  cf.br ^next
^next(%v):
  return
}
