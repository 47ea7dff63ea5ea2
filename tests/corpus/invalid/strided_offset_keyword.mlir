// ERROR: 2:48: expected 'offset' after comma
func.func private @g(memref<8xf32, strided<[1], 4>>)
