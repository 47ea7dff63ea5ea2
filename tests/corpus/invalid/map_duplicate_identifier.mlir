// ERROR: 2:24: redefinition of identifier 'd0'
#map = affine_map<(d0, d0) -> (d0)>
