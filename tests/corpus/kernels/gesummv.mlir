// gesummv (PolyBench): y = alpha * A * x + beta * B * x.
// scale: 40=N
func.func @gesummv(%A: memref<40x40xf32>, %B: memref<40x40xf32>, %tmp: memref<40xf32>, %x: memref<40xf32>, %y: memref<40xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 40 {
    affine.store %zero, %tmp[%i] : memref<40xf32>
    affine.store %zero, %y[%i] : memref<40xf32>
    affine.for %j = 0 to 40 {
      %a = affine.load %A[%i, %j] : memref<40x40xf32>
      %xv = affine.load %x[%j] : memref<40xf32>
      %ax = arith.mulf %a, %xv : f32
      %t = affine.load %tmp[%i] : memref<40xf32>
      %t2 = arith.addf %ax, %t : f32
      affine.store %t2, %tmp[%i] : memref<40xf32>
      %b = affine.load %B[%i, %j] : memref<40x40xf32>
      %bx = arith.mulf %b, %xv : f32
      %yv = affine.load %y[%i] : memref<40xf32>
      %y2 = arith.addf %bx, %yv : f32
      affine.store %y2, %y[%i] : memref<40xf32>
    }
    %t = affine.load %tmp[%i] : memref<40xf32>
    %yv = affine.load %y[%i] : memref<40xf32>
    %at = arith.mulf %alpha, %t : f32
    %by = arith.mulf %beta, %yv : f32
    %r = arith.addf %at, %by : f32
    affine.store %r, %y[%i] : memref<40xf32>
  }
  return
}
