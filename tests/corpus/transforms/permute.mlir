// Perfect nests of depth 2 and 3 (the latter also as part of an imperfect nest) for loop
// permutation; bounds do not depend on the permuted loops.
func.func @nests(%A: memref<10x20x30xf32>, %N: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 20 {
      affine.for %k = 0 to %N {
        %v = affine.load %A[%i, %j, %k] : memref<10x20x30xf32>
        %w = arith.addf %v, %v : f32
        affine.store %w, %A[%i, %j, %k] : memref<10x20x30xf32>
      }
    }
  }
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 20 {
      affine.for %k = 0 to 30 {
        %v = affine.load %A[%i, %j, %k] : memref<10x20x30xf32>
        affine.store %v, %A[%i, %j, %k] : memref<10x20x30xf32>
      }
      affine.for %k = 0 to 30 step 2 {
        %v = affine.load %A[%i, %j, %k] : memref<10x20x30xf32>
        affine.store %v, %A[%i, %j, %k] : memref<10x20x30xf32>
      }
    }
  }
  return
}
