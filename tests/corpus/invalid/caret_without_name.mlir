// ERROR: 3:9: invalid block name
func.func @f() {
  cf.br ^
}
