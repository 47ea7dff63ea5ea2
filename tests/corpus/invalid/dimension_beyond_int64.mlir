// ERROR: 2:29: invalid dimension
func.func private @g(memref<18446744073709551616xf32>)
