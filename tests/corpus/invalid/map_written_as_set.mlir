// ERROR: 2:19: expected AffineMap, but got IntegerSet
#bad = affine_map<(i) : (i - 1 >= 0)>
