// ERROR: 2:16: expected '<' in integer set
#s = affine_set (d0) : (d0 >= 0)
