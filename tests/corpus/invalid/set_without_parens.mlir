// ERROR: 2:26: expected '(' at start of integer set constraint list
#set = affine_set<(d0) : d0 >= 0>
