// heat-3d (PolyBench): T time steps of a 7-point 3-D stencil, ping-ponging between A and B.
// scale: 12=N 11=N-1 5=T
func.func @heat_3d(%A: memref<12x12x12xf32>, %B: memref<12x12x12xf32>) {
  %eighth = arith.constant 0.125 : f32
  %two = arith.constant 2.0 : f32
  affine.for %t = 0 to 5 {
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        affine.for %k = 1 to 11 {
          %c = affine.load %A[%i, %j, %k] : memref<12x12x12xf32>
          %c2 = arith.mulf %two, %c : f32
          %ip = affine.load %A[%i + 1, %j, %k] : memref<12x12x12xf32>
          %im = affine.load %A[%i - 1, %j, %k] : memref<12x12x12xf32>
          %jp = affine.load %A[%i, %j + 1, %k] : memref<12x12x12xf32>
          %jm = affine.load %A[%i, %j - 1, %k] : memref<12x12x12xf32>
          %kp = affine.load %A[%i, %j, %k + 1] : memref<12x12x12xf32>
          %km = affine.load %A[%i, %j, %k - 1] : memref<12x12x12xf32>
          %x1 = arith.subf %ip, %c2 : f32
          %x2 = arith.addf %x1, %im : f32
          %x3 = arith.mulf %eighth, %x2 : f32
          %y1 = arith.subf %jp, %c2 : f32
          %y2 = arith.addf %y1, %jm : f32
          %y3 = arith.mulf %eighth, %y2 : f32
          %z1 = arith.subf %kp, %c2 : f32
          %z2 = arith.addf %z1, %km : f32
          %z3 = arith.mulf %eighth, %z2 : f32
          %s1 = arith.addf %x3, %y3 : f32
          %s2 = arith.addf %s1, %z3 : f32
          %v = arith.addf %s2, %c : f32
          affine.store %v, %B[%i, %j, %k] : memref<12x12x12xf32>
        }
      }
    }
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        affine.for %k = 1 to 11 {
          %c = affine.load %B[%i, %j, %k] : memref<12x12x12xf32>
          %c2 = arith.mulf %two, %c : f32
          %ip = affine.load %B[%i + 1, %j, %k] : memref<12x12x12xf32>
          %im = affine.load %B[%i - 1, %j, %k] : memref<12x12x12xf32>
          %jp = affine.load %B[%i, %j + 1, %k] : memref<12x12x12xf32>
          %jm = affine.load %B[%i, %j - 1, %k] : memref<12x12x12xf32>
          %kp = affine.load %B[%i, %j, %k + 1] : memref<12x12x12xf32>
          %km = affine.load %B[%i, %j, %k - 1] : memref<12x12x12xf32>
          %x1 = arith.subf %ip, %c2 : f32
          %x2 = arith.addf %x1, %im : f32
          %x3 = arith.mulf %eighth, %x2 : f32
          %y1 = arith.subf %jp, %c2 : f32
          %y2 = arith.addf %y1, %jm : f32
          %y3 = arith.mulf %eighth, %y2 : f32
          %z1 = arith.subf %kp, %c2 : f32
          %z2 = arith.addf %z1, %km : f32
          %z3 = arith.mulf %eighth, %z2 : f32
          %s1 = arith.addf %x3, %y3 : f32
          %s2 = arith.addf %s1, %z3 : f32
          %v = arith.addf %s2, %c : f32
          affine.store %v, %A[%i, %j, %k] : memref<12x12x12xf32>
        }
      }
    }
  }
  return
}
