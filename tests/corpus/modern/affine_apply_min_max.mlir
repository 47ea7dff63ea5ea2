// affine.apply / affine.min / affine.max with dims, symbols, floordiv, ceildiv and mod.
func.func @apply(%i: index, %j: index, %N: index) -> (index, index, index, index) {
  %0 = affine.apply affine_map<(d0, d1)[s0] -> (d0 floordiv 8 + d1 ceildiv 4 - s0 mod 3)>(%i, %j)[%N]
  %1 = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%0)
  %2 = affine.min affine_map<(d0)[s0] -> (d0 + 32, s0, 100)>(%1)[%N]
  %3 = affine.max affine_map<(d0, d1) -> (d0 - d1, 0)>(%2, %i)
  %4 = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%N, %N]
  %5 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0 + d0 mod s0)>(%i)[%N] {tag = "semi"}
  return %2, %3, %4, %5 : index, index, index, index
}
