// ERROR: 2:22: invalid integer width
func.func private @g(i4294967296)
