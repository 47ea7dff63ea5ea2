// A 3-D recurrence with distances (1,0,0), (0,1,0) and (0,0,1).
func.func @wave(%A: memref<4x4x4xf32>) {
  affine.for %i = 1 to 4 {
    affine.for %j = 1 to 4 {
      affine.for %k = 1 to 4 {
        %a = affine.load %A[%i - 1, %j, %k] : memref<4x4x4xf32>
        %b = affine.load %A[%i, %j - 1, %k] : memref<4x4x4xf32>
        %c = affine.load %A[%i, %j, %k - 1] : memref<4x4x4xf32>
        %s = arith.addf %a, %b : f32
        %t = arith.addf %s, %c : f32
        affine.store %t, %A[%i, %j, %k] : memref<4x4x4xf32>
      }
    }
  }
  return
}
