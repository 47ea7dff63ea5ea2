// A gather through loaded indices (subscripts that are not affine: the elements gathered
// may be any of the memref's), then a row sum of what was gathered, fused at depth 1.
func.func @gathered_rows(%A: memref<16x8xf32>, %D: memref<16xf32>, %idx: memref<12xindex>, %G: memref<12x8xf32>, %S: memref<12xf32>) {
  affine.for %i = 0 to 12 {
    %r = affine.load %idx[%i] : memref<12xindex>
    affine.for %j = 0 to 8 {
      %a = memref.load %A[%r, %j] : memref<16x8xf32>
      %d = memref.load %D[%r] : memref<16xf32>
      %s = arith.addf %a, %d : f32
      affine.store %s, %G[%i, %j] : memref<12x8xf32>
    }
  }
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 8 {
      %g = affine.load %G[%i, %j] : memref<12x8xf32>
      %acc = affine.load %S[%i] : memref<12xf32>
      %n = arith.addf %acc, %g : f32
      affine.store %n, %S[%i] : memref<12xf32>
    }
  }
  return
}
