// A layout map whose results are its dimensions is dropped, whatever its symbols.
func.func private @identity_with_symbol(memref<2x4xf32, affine_map<(d0, d1)[s0] -> (d0, d1)>, 1>)
func.func private @kept(memref<2x4xf32, affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>>)
