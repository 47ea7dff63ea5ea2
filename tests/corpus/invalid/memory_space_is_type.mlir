// ERROR: 2:22: unsupported memory space Attribute
func.func private @g(memref<8xf32, f16>)
