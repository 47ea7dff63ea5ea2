// ERROR: 2:67: expected memory space to be last in memref type
func.func private @g(memref<8xf32, 2, affine_map<(d0) -> (d0 + 1)>>)
