// ERROR: 2:37: expected ',' or '>'
func.func private @g(memref<4xf32, 3 7>)
