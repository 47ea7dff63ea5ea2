// ERROR: 2:22: failed to verify 'elementType': VectorElementTypeInterface instance
func.func private @g(vector<4xtuple<i32>>)
