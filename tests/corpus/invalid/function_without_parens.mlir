// ERROR: 2:13: expected '('
func.func @g -> i32
