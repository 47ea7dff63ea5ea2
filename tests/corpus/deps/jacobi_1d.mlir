// Jacobi 1-D with two arrays and a time loop.
func.func @jacobi(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 9 {
      %a = affine.load %A[%i - 1] : memref<10xf32>
      %b = affine.load %A[%i] : memref<10xf32>
      %c = affine.load %A[%i + 1] : memref<10xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      affine.store %u, %B[%i] : memref<10xf32>
    }
    affine.for %i = 1 to 9 {
      %v = affine.load %B[%i] : memref<10xf32>
      affine.store %v, %A[%i] : memref<10xf32>
    }
  }
  return
}
