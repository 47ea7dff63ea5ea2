// ERROR: 2:1: attribute names with a '.' are reserved for dialect-defined names
#arith.m = affine_map<(d0) -> (d0)>
