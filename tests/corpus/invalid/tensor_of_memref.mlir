// ERROR: 2:31: invalid tensor element type
func.func private @g(tensor<2xmemref<4xf32>>)
