// Subscripts through affine.delinearize_index and affine.linearize_index are affine
// (k floordiv 16, k mod 16; 16 i + j): the memref.store of the second nest writes every
// element of A, so no value of the first nest's stores reaches the third nest's loads.
func.func @delinearized(%A: memref<8x16xf32>, %B: memref<128xf32>, %c: f32) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.store %c, %A[%i, %j] : memref<8x16xf32>
    }
  }
  affine.for %k = 0 to 128 {
    %ij:2 = affine.delinearize_index %k into (8, 16) : index, index
    %v = affine.load %B[%k] : memref<128xf32>
    memref.store %v, %A[%ij#0, %ij#1] : memref<8x16xf32>
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %x = affine.load %A[%i, %j] : memref<8x16xf32>
      %k = affine.linearize_index disjoint [%i, %j] by (8, 16) : index
      %y = memref.load %B[%k] : memref<128xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %A[%i, %j] : memref<8x16xf32>
    }
  }
  return
}
