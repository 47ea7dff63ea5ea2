// ERROR: 2:40: multiple memory spaces specified in memref type
func.func private @g(memref<8xf32, 1, 3>)
