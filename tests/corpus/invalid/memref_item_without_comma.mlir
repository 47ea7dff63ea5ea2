// ERROR: 2:34: expected ',' or '>' in memref type
func.func private @g(memref<4xf32 3>)
