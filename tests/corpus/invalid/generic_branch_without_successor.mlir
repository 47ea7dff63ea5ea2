// ERROR: 3:3: 'cf.br' op requires 1 successor but found 0
func.func @f() {
  "cf.br"() : () -> ()
}
