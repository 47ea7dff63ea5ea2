// Rectangular bands for tiling: symbolic and constant bounds, a stepped loop whose trip
// count the tile size does not divide, max/min bounds of symbols, a loop shorter than a
// tile and a three-deep band.
func.func @rectangular(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %N: index, %M: index) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to 50 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %B[%j, %i] : memref<?x?xf32>
    }
  }
  affine.for %i = 0 to 100 {
    affine.for %j = 3 to 21 step 2 {
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
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %B[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

func.func @matmul(%A: memref<24x18xf32>, %B: memref<18x20xf32>, %C: memref<24x20xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 20 {
      affine.for %k = 0 to 18 {
        %a = affine.load %A[%i, %k] : memref<24x18xf32>
        %b = affine.load %B[%k, %j] : memref<18x20xf32>
        %c = affine.load %C[%i, %j] : memref<24x20xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<24x20xf32>
      }
    }
  }
  return
}
