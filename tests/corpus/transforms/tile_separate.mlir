// Bands with partial tiles and unit steps, for tiling with full tiles separated: symbolic
// and constant upper bounds, min upper bounds and a max lower bound.
func.func @separate(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %N: index, %M: index) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to 50 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %B[%j, %i] : memref<?x?xf32>
    }
  }
  affine.for %i = %M to min affine_map<()[s0] -> (s0, 70)>()[%N] {
    affine.for %j = max affine_map<()[s0] -> (s0, 2)>()[%N] to 64 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %B[%j, %i] : memref<?x?xf32>
    }
  }
  affine.for %i = 0 to 30 {
    affine.for %j = 0 to %M {
      affine.for %k = 0 to %N {
        %v = affine.load %A[%i, %j] : memref<?x?xf32>
        affine.store %v, %B[%j, %k] : memref<?x?xf32>
      }
    }
  }
  return
}
