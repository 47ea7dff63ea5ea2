// floordiv / mod / ceildiv subscripts and bounds, including negative numerators:
// a 16x4 view of a vector, a stride-5 permutation, a shifted scatter and ceildiv bounds.
// scale: 64=N 16=NB 17=NB+1
func.func @mod_floordiv(%A: memref<16x4xf32>, %B: memref<64xf32>, %C: memref<17x4xf32>, %D: memref<16xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %A[%i floordiv 4, %i mod 4] : memref<16x4xf32>
    affine.store %v, %B[(%i * 5) mod 64] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %b = affine.load %B[%i] : memref<64xf32>
    %c = affine.load %C[(%i - 5) floordiv 4 + 2, (%i - 7) mod 4] : memref<17x4xf32>
    %s = arith.addf %b, %c : f32
    affine.store %s, %C[(%i - 5) floordiv 4 + 2, (%i - 7) mod 4] : memref<17x4xf32>
  }
  affine.for %j = 0 to 16 {
    affine.for %i = affine_map<(d0) -> (d0 ceildiv 2)>(%j) to affine_map<(d0) -> ((d0 * 3) ceildiv 2 + 1)>(%j) {
      %b = affine.load %B[%i] : memref<64xf32>
      %d = affine.load %D[%j] : memref<16xf32>
      %s = arith.addf %d, %b : f32
      affine.store %s, %D[%j] : memref<16xf32>
    }
  }
  return
}
