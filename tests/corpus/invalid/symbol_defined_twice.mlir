// ERROR: 3:1: redefinition of symbol named 'kernel'
func.func private @kernel(i32)
func.func @kernel(%x: i32) {
  return
}
