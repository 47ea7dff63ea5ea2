// Semi-affine maps of the seed specification: multiplication, floordiv(.., s), ceildiv
// and mod by symbols, in layouts and affine_apply (seeds/002 "Semi-affine maps").
#semi = (d0, d1)[s0, s1] -> (d0 * s0 + floordiv(d1, s1) + ceildiv(d0, s1) + d1 mod s0)
#sym_tile = (d0, d1)[s0] -> (floordiv(d0, s0), d1, d0 mod s0)
func @semi(%N: index, %T: index) {
  %A = alloc()[%T] : memref<64x64xf32, #sym_tile>
  for %i = 0 to 64 {
    for %j = 0 to 64 {
      %x = affine_apply #semi(%i, %j)[%N, %T]
      %v = load %A[%i, %j] : memref<64x64xf32, #sym_tile>
      store %v, %A[%j, %i] : memref<64x64xf32, #sym_tile>
    }
  }
  return
}
