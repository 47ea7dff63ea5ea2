// ERROR: 3:21: integer constant out of range for attribute
func.func @f() {
  "x.flag"() {bit = 1 : si0} : () -> ()
  return
}
