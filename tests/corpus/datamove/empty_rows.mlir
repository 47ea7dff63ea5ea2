// A loop that runs no iteration for most rows (j from i to 3, past i = 2) beside one that
// runs whole rows: copies around the first must move nothing where it is empty (a DMA of
// its box at i = 11 read A[11][11 .. 13], past the memref).
func.func @empty_rows(%A: memref<12x12xi32>, %B: memref<12x12xi32>) {
  affine.for %i = 0 to 12 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 3 {
      %a = affine.load %A[%i, %j] : memref<12x12xi32>
      affine.store %a, %B[%i, %j] : memref<12x12xi32>
    }
    affine.for %j = 0 to 12 {
      %a = affine.load %A[%j, %i] : memref<12x12xi32>
      affine.store %a, %B[%i, %j] : memref<12x12xi32>
    }
  }
  return
}
