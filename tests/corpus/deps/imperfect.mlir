// An imperfect nest: a row initialisation before the inner reduction loop.
func.func @imperfect(%A: memref<5x6xf32>, %s: memref<5xf32>, %z: f32) {
  affine.for %i = 0 to 5 {
    affine.store %z, %s[%i] : memref<5xf32>
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %t = affine.load %s[%i] : memref<5xf32>
      %u = arith.addf %t, %a : f32
      affine.store %u, %s[%i] : memref<5xf32>
    }
  }
  return
}
