// ERROR: 3:8: 'memref.transpose' op requires attribute 'permutation'
func.func @f(%buf: memref<2x3xf32>) {
  %t = "memref.transpose"(%buf) : (memref<2x3xf32>) -> memref<3x2xf32, strided<[1, 3]>>
  return
}
