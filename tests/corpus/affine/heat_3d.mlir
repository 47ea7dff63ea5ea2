// A 7-point 3-D stencil with a time loop (PolyBench heat-3d shape).
func.func @heat_3d(%A: memref<20x20x20xf64>, %B: memref<20x20x20xf64>) {
  %c = arith.constant 1.250000e-01 : f64
  %two = arith.constant 2.000000e+00 : f64
  affine.for %t = 1 to 5 {
    affine.for %i = 1 to 19 {
      affine.for %j = 1 to 19 {
        affine.for %k = 1 to 19 {
          %x = affine.load %A[%i, %j, %k] : memref<20x20x20xf64>
          %xp = affine.load %A[%i + 1, %j, %k] : memref<20x20x20xf64>
          %xm = affine.load %A[%i - 1, %j, %k] : memref<20x20x20xf64>
          %yp = affine.load %A[%i, %j + 1, %k] : memref<20x20x20xf64>
          %ym = affine.load %A[%i, %j - 1, %k] : memref<20x20x20xf64>
          %zp = affine.load %A[%i, %j, %k + 1] : memref<20x20x20xf64>
          %zm = affine.load %A[%i, %j, %k - 1] : memref<20x20x20xf64>
          %x2 = arith.mulf %two, %x : f64
          %a0 = arith.addf %xp, %xm : f64
          %a1 = arith.subf %a0, %x2 : f64
          %b0 = arith.addf %yp, %ym : f64
          %b1 = arith.subf %b0, %x2 : f64
          %c0 = arith.addf %zp, %zm : f64
          %c1 = arith.subf %c0, %x2 : f64
          %s0 = arith.addf %a1, %b1 : f64
          %s1 = arith.addf %s0, %c1 : f64
          %s2 = arith.mulf %c, %s1 : f64
          %v = arith.addf %s2, %x : f64
          affine.store %v, %B[%i, %j, %k] : memref<20x20x20xf64>
        }
      }
    }
  }
  return
}
