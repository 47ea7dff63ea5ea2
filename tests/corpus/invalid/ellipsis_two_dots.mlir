// ERROR: 2:35: expected three consecutive dots for an ellipsis
func.func private @variadic(i32, ..)
