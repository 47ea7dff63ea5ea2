// ERROR: 2:19: expected IntegerSet, but got AffineMap
#bad = affine_set<(i) -> (i + 1)>
