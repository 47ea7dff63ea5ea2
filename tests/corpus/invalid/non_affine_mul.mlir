// ERROR: 2:35: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic
#map = affine_map<(d0, d1) -> (d0 * d1)>
