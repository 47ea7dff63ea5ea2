// Transfers between scalar accesses: a row written four lanes at a time (its last vector
// runs past the row: those lanes are not written), read back by scalar loads; a column read
// through a permutation map after scalar stores; a broadcast read of one element. Value-based
// flow: the transfer writes kill the stores of the first nest wherever their lanes land.
#column = affine_map<(d0, d1) -> (d0)>
#broadcast = affine_map<(d0, d1) -> (0, d1)>
func.func @transfers(%A: memref<10x10xf32>, %B: memref<10x10xf32>) {
  %p = ub.poison : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %x = affine.load %B[%i, %j] : memref<10x10xf32>
      affine.store %x, %A[%i, %j] : memref<10x10xf32>
    }
  }
  affine.for %i = 0 to 10 step 2 {
    affine.for %j = 0 to 10 step 4 {
      %v = vector.transfer_read %B[%j, %i], %p {permutation_map = #column} : memref<10x10xf32>, vector<4xf32>
      vector.transfer_write %v, %A[%i, %j] : vector<4xf32>, memref<10x10xf32>
    }
  }
  affine.for %i = 1 to 10 {
    affine.for %j = 0 to 9 {
      %y = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
      affine.store %y, %B[%i, %j] : memref<10x10xf32>
      %w = vector.transfer_read %B[%i, %j], %p {permutation_map = #broadcast} : memref<10x10xf32>, vector<2x3xf32>
      %e = vector.extract %w[1, 2] : f32 from vector<2x3xf32>
      affine.store %e, %A[%j, %i] : memref<10x10xf32>
    }
  }
  return
}
