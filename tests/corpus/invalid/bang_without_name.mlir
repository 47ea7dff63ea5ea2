// ERROR: 2:22: invalid type identifier
func.func private @g(!<i32>)
