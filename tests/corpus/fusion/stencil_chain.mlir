// Stencil chain: B = A * A (B private), C[i] = B[i-1] + B[i] + B[i+1].
// scale: 66=N 65=N-1
func.func @stencil(%A: memref<66xf32>, %C: memref<66xf32>) {
  %B = memref.alloc() : memref<66xf32>
  affine.for %i = 0 to 66 {
    %a = affine.load %A[%i] : memref<66xf32>
    %m = arith.mulf %a, %a : f32
    affine.store %m, %B[%i] : memref<66xf32>
  }
  affine.for %j = 1 to 65 {
    %l = affine.load %B[%j - 1] : memref<66xf32>
    %c = affine.load %B[%j] : memref<66xf32>
    %r = affine.load %B[%j + 1] : memref<66xf32>
    %s = arith.addf %l, %c : f32
    %t = arith.addf %s, %r : f32
    affine.store %t, %C[%j] : memref<66xf32>
  }
  return
}
