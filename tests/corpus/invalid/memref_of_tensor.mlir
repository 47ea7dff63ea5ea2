// ERROR: 2:31: invalid memref element type
func.func private @g(memref<2xtensor<4xf32>>)
