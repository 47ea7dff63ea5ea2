// ERROR: 2:49: non-affine expression: right operand of floordiv has to be either a constant or symbolic
#m = affine_map<(d0, d1) -> (d0 * 4 floordiv d1 * 2)>
