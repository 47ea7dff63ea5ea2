// Blur of a squared image: B = A * A (B an argument, so it escapes), C[i][j] = B[i][j] +
// B[i+1][j] + B[i+2][j]. Recomputing the three rows each consumer iteration reads runs
// 12288 producer instances for 4224 (+291%); the producer stays, B being an argument.
func.func @blur(%A: memref<66x64xf32>, %C: memref<64x64xf32>, %B: memref<66x64xf32>) {
  affine.for %i = 0 to 66 {
    affine.for %j = 0 to 64 {
      %a = affine.load %A[%i, %j] : memref<66x64xf32>
      %m = arith.mulf %a, %a : f32
      affine.store %m, %B[%i, %j] : memref<66x64xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %x = affine.load %B[%i, %j] : memref<66x64xf32>
      %y = affine.load %B[%i + 1, %j] : memref<66x64xf32>
      %z = affine.load %B[%i + 2, %j] : memref<66x64xf32>
      %s = arith.addf %x, %y : f32
      %t = arith.addf %s, %z : f32
      affine.store %t, %C[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
