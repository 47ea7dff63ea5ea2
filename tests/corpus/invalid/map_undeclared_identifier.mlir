// ERROR: 2:38: use of undeclared identifier
#m = affine_map<(d0, d1) -> (d0, d1 + k)>
