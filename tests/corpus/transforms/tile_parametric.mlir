// Parametric tiling: the first arguments of each function are the tile sizes (as for
// mlir-opt's -test-affine-parametric-tile).
func.func @constant_bounds(%t0: index, %t1: index, %A: memref<256x512xf32>) {
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 512 {
      %v = affine.load %A[%i, %j] : memref<256x512xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %A[%i, %j] : memref<256x512xf32>
    }
  }
  return
}

func.func @symbolic_and_min_bounds(%t0: index, %t1: index, %A: memref<?x?xf32>, %N: index) {
  affine.for %i = 0 to %N {
    affine.for %j = 3 to min affine_map<()[s0] -> (s0, 512)>()[%N] step 2 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @small(%t0: index, %t1: index, %A: memref<13x40xf32>, %B: memref<40x13xf32>) {
  affine.for %i = 1 to 13 {
    affine.for %j = 2 to 40 step 3 {
      %v = affine.load %A[%i, %j] : memref<13x40xf32>
      affine.store %v, %B[%j, %i] : memref<40x13xf32>
    }
  }
  return
}
