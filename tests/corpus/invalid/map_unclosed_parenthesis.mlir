// ERROR: 2:33: expected ')'
#m = affine_map<(d0) -> ((d0 + 1, d0)>
