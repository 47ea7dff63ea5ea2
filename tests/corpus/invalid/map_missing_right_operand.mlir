// ERROR: 2:38: missing right operand of binary operator
#m = affine_map<(d0, d1) -> (d0 * 2 +, d1)>
