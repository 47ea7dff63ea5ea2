// ERROR: 2:22: vector types must have positive constant sizes but got 2, 0
func.func private @g(vector<2x0xf32>)
