// ERROR: 2:35: expected list element
func.func private @g(memref<4xf32, >)
