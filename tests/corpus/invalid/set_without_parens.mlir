// ERROR: 2:25: expected '(' in integer set constraint list
#set = affine_set<(d0) : d0 >= 0>
