// Dense literals of strings (any non-numeric element type) are printed with mlir-opt's
// escapes; zero-width integers hold only 0.
func.func @labels() {
  "x.table"() {names = dense<["tab\there", "quote\"d"]> : tensor<2x!x.text>, one = dense<"line\nbreak"> : tensor<3x!x.text>} : () -> ()
  "x.widths"() {z = 0 : i0, s = 0 : si0, u = 0x0 : ui0} : () -> ()
  return
}
