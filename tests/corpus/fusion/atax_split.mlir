// atax: t = A x (a private vector), y = A^T t.
// scale: 18=M 22=N
func.func @atax(%A: memref<18x22xf32>, %x: memref<22xf32>, %y: memref<22xf32>) {
  %t = memref.alloc() : memref<18xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 18 {
    affine.store %zero, %t[%i] : memref<18xf32>
    affine.for %j = 0 to 22 {
      %ti = affine.load %t[%i] : memref<18xf32>
      %a = affine.load %A[%i, %j] : memref<18x22xf32>
      %xj = affine.load %x[%j] : memref<22xf32>
      %m = arith.mulf %a, %xj : f32
      %n = arith.addf %ti, %m : f32
      affine.store %n, %t[%i] : memref<18xf32>
    }
  }
  affine.for %i = 0 to 18 {
    affine.for %j = 0 to 22 {
      %yj = affine.load %y[%j] : memref<22xf32>
      %a = affine.load %A[%i, %j] : memref<18x22xf32>
      %ti = affine.load %t[%i] : memref<18xf32>
      %m = arith.mulf %a, %ti : f32
      %n = arith.addf %yj, %m : f32
      affine.store %n, %y[%j] : memref<22xf32>
    }
  }
  return
}
