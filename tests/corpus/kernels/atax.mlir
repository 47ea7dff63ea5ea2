// atax (PolyBench): y = A^T * (A * x), with tmp = A * x.
// scale: 38=M 42=N
func.func @atax(%A: memref<38x42xf32>, %x: memref<42xf32>, %y: memref<42xf32>, %tmp: memref<38xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 42 {
    affine.store %zero, %y[%i] : memref<42xf32>
  }
  affine.for %i = 0 to 38 {
    affine.store %zero, %tmp[%i] : memref<38xf32>
    affine.for %j = 0 to 42 {
      %a = affine.load %A[%i, %j] : memref<38x42xf32>
      %xv = affine.load %x[%j] : memref<42xf32>
      %p = arith.mulf %a, %xv : f32
      %t = affine.load %tmp[%i] : memref<38xf32>
      %s = arith.addf %t, %p : f32
      affine.store %s, %tmp[%i] : memref<38xf32>
    }
    affine.for %j = 0 to 42 {
      %yv = affine.load %y[%j] : memref<42xf32>
      %a = affine.load %A[%i, %j] : memref<38x42xf32>
      %t = affine.load %tmp[%i] : memref<38xf32>
      %p = arith.mulf %a, %t : f32
      %s = arith.addf %yv, %p : f32
      affine.store %s, %y[%j] : memref<42xf32>
    }
  }
  return
}
