// Even i write A[i], odd i read A[i - 1] (through an equality guard with a mod).
// mlir-opt 22 answers 'false' for store 0 -> load 1 and store 2 -> store 0 at depth 1: it
// gives the else branch the then-branch condition. Both depend at distance 1 (i = 2k writes
// A[2k], i = 2k + 1 reads it and writes A[2k + 2]).
func.func @ifelse(%A: memref<12xf32>, %c: f32) {
  affine.for %i = 1 to 11 {
    affine.if affine_set<(d0) : (d0 mod 2 == 0)>(%i) {
      affine.store %c, %A[%i] : memref<12xf32>
    } else {
      %v = affine.load %A[%i - 1] : memref<12xf32>
      affine.store %v, %A[%i + 1] : memref<12xf32>
    }
  }
  return
}
