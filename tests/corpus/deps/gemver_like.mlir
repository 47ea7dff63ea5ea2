// Two nests over the same arrays (gemver-like): dependences between different nests are depth 1 "true".
func.func @gemver(%A: memref<5x5xf32>, %x: memref<5xf32>, %y: memref<5xf32>) {
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 5 {
      %a = affine.load %A[%i, %j] : memref<5x5xf32>
      %b = affine.load %y[%j] : memref<5xf32>
      %p = arith.mulf %a, %b : f32
      affine.store %p, %A[%i, %j] : memref<5x5xf32>
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 5 {
      %a = affine.load %A[%j, %i] : memref<5x5xf32>
      %x0 = affine.load %x[%i] : memref<5xf32>
      %s = arith.addf %x0, %a : f32
      affine.store %s, %x[%i] : memref<5xf32>
    }
  }
  return
}
