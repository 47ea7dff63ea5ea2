// ERROR: 2:30: expected 'x' in dimension list
func.func private @g(memref<4 8xf32>)
