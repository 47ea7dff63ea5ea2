// ERROR: 2:30: invalid element type for complex
func.func private @g(complex<index>)
