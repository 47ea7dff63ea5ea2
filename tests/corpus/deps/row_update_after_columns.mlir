// symm's shape with temp2 in memory (T): the j loop holds T's zeroing, a k loop updating
// C[k][j] and T[i][j], and C[i][j]'s update. The RAW dependence from C[i][j]'s update to
// the k loop's read of C[k][j] (k = i) is carried by i alone, so distributing j is legal.
func.func @row_update_after_columns(%C: memref<6x5xf32>, %B: memref<6x5xf32>, %T: memref<6x5xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 5 {
      affine.store %zero, %T[%i, %j] : memref<6x5xf32>
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %b = affine.load %B[%i, %j] : memref<6x5xf32>
        %c = affine.load %C[%k, %j] : memref<6x5xf32>
        %s = arith.addf %c, %b : f32
        affine.store %s, %C[%k, %j] : memref<6x5xf32>
        %t = affine.load %T[%i, %j] : memref<6x5xf32>
        %u = arith.addf %t, %c : f32
        affine.store %u, %T[%i, %j] : memref<6x5xf32>
      }
      %cij = affine.load %C[%i, %j] : memref<6x5xf32>
      %tij = affine.load %T[%i, %j] : memref<6x5xf32>
      %r = arith.addf %cij, %tij : f32
      affine.store %r, %C[%i, %j] : memref<6x5xf32>
    }
  }
  return
}
