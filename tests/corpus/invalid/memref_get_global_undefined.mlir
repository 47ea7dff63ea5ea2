// ERROR: 4:8: 'memref.get_global' op 'bias' does not reference a valid global memref
memref.global @weights : memref<4xf32> = dense<1.0>
func.func @f() {
  %0 = memref.get_global @bias : memref<4xf32>
  return
}
