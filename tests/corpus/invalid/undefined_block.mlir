// ERROR: 3:9: reference to an undefined block
func.func @f() {
  cf.br ^bb9
}
