// ERROR: 2:28: expected '<' in memref type
func.func private @g(memref * <4xf32>)
