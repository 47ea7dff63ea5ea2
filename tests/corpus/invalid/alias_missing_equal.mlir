// ERROR: 2:3: expected '=' in attribute alias definition
#m affine_map<(d0) -> (d0)>
