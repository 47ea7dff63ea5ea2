// ERROR: 2:27: expected '->' or ':'
#bad = affine_map<(d0)[s0]   (d0 + s0)>
