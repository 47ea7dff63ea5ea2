// ERROR: 3:3: custom op 'memref.frobnicate' is unknown
func.func @f() {
  memref.frobnicate
  return
}
