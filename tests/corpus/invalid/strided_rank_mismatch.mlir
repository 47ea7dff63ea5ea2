// ERROR: 2:22: expected the number of strides to match the rank
func.func private @g(memref<8x8xf32, strided<[8]>>)
