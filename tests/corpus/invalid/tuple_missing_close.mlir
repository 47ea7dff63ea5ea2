// ERROR: 2:36: expected '>' in tuple type
func.func private @g(tuple<i32, f32)
