// jacobi-1d (PolyBench): T time steps of a 3-point stencil, ping-ponging between A and B.
// scale: 40=N 39=N-1 20=T
func.func @jacobi_1d(%A: memref<40xf32>, %B: memref<40xf32>) {
  %third = arith.constant 0.33333 : f32
  affine.for %t = 0 to 20 {
    affine.for %i = 1 to 39 {
      %l = affine.load %A[%i - 1] : memref<40xf32>
      %c = affine.load %A[%i] : memref<40xf32>
      %r = affine.load %A[%i + 1] : memref<40xf32>
      %s1 = arith.addf %l, %c : f32
      %s2 = arith.addf %s1, %r : f32
      %v = arith.mulf %third, %s2 : f32
      affine.store %v, %B[%i] : memref<40xf32>
    }
    affine.for %i = 1 to 39 {
      %l = affine.load %B[%i - 1] : memref<40xf32>
      %c = affine.load %B[%i] : memref<40xf32>
      %r = affine.load %B[%i + 1] : memref<40xf32>
      %s1 = arith.addf %l, %c : f32
      %s2 = arith.addf %s1, %r : f32
      %v = arith.mulf %third, %s2 : f32
      affine.store %v, %A[%i] : memref<40xf32>
    }
  }
  return
}
