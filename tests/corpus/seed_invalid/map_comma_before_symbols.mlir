// ERROR: 3:31: expected '->' or ':'
// Original problem: seeds/002 'Layout Map': `(i, j), [M, N]` has a comma between the dimension and symbol lists.
#layout_map_col_major = (i, j), [M, N] -> (j, i) size (M, N)
