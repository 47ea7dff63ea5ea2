// ERROR: 2:20: @ identifier expected to start with letter or '_'
func.func private @.hidden()
