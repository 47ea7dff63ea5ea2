// ERROR: 3:3: 'memref.load' op requires one result
func.func @f(%buf: memref<8xf32>, %k: index) {
  "memref.load"(%buf, %k) : (memref<8xf32>, index) -> ()
  return
}
