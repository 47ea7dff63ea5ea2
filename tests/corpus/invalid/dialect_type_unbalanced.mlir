// ERROR: 2:29: unbalanced '[' character in pretty dialect name
func.func private @g(!x.cell<[i32)>)
