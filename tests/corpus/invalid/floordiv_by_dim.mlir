// ERROR: 2:35: non-affine expression: right operand of floordiv has to be either a constant or symbolic
#map = affine_map<(d0, d1) -> (d0 floordiv d1)>
