// ERROR: 2:23: expected bare identifier
#bad = affine_map<(d0, 3) -> (d0)>
