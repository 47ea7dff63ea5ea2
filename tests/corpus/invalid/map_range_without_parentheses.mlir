// ERROR: 2:24: expected '(' in affine map range
#m = affine_map<(d0) -> d0>
