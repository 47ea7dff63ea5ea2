// deriche (PolyBench): Deriche's recursive edge-detection filter on a W x H image: causal
// and anti-causal passes along rows (j running down as j = H-1-jj), then along columns,
// each carrying its previous inputs and outputs in iter_args. The filter coefficients
// for alpha = 0.25, computed in the original from exp and pow, are written as f32
// constants (k = a1 = a5, a2 = a6, a3 = a7, a4 = a8, b1, b2; c1 = c2 = 1).
// scale: 24=W 23=W-1 20=H 19=H-1
func.func @deriche(%imgIn: memref<24x20xf32>, %imgOut: memref<24x20xf32>, %y1: memref<24x20xf32>, %y2: memref<24x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  %a1 = arith.constant -0.188681662 : f32
  %a2 = arith.constant 0.110209078 : f32
  %a3 = arith.constant -0.183681786 : f32
  %a4 = arith.constant 0.114441216 : f32
  %b1 = arith.constant 0.840896428 : f32
  %b2 = arith.constant -0.606530666 : f32
  affine.for %i = 0 to 24 {
    %r:3 = affine.for %j = 0 to 20 iter_args(%ym1 = %zero, %ym2 = %zero, %xm1 = %zero) -> (f32, f32, f32) {
      %x = affine.load %imgIn[%i, %j] : memref<24x20xf32>
      %t1 = arith.mulf %a1, %x : f32
      %t2 = arith.mulf %a2, %xm1 : f32
      %s1 = arith.addf %t1, %t2 : f32
      %t3 = arith.mulf %b1, %ym1 : f32
      %s2 = arith.addf %s1, %t3 : f32
      %t4 = arith.mulf %b2, %ym2 : f32
      %y = arith.addf %s2, %t4 : f32
      affine.store %y, %y1[%i, %j] : memref<24x20xf32>
      affine.yield %y, %ym1, %x : f32, f32, f32
    }
  }
  affine.for %i = 0 to 24 {
    %r:4 = affine.for %jj = 0 to 20 iter_args(%yp1 = %zero, %yp2 = %zero, %xp1 = %zero, %xp2 = %zero) -> (f32, f32, f32, f32) {
      %t1 = arith.mulf %a3, %xp1 : f32
      %t2 = arith.mulf %a4, %xp2 : f32
      %s1 = arith.addf %t1, %t2 : f32
      %t3 = arith.mulf %b1, %yp1 : f32
      %s2 = arith.addf %s1, %t3 : f32
      %t4 = arith.mulf %b2, %yp2 : f32
      %y = arith.addf %s2, %t4 : f32
      affine.store %y, %y2[%i, -%jj + 19] : memref<24x20xf32>
      %x = affine.load %imgIn[%i, -%jj + 19] : memref<24x20xf32>
      affine.yield %y, %yp1, %x, %xp1 : f32, f32, f32, f32
    }
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 20 {
      %u = affine.load %y1[%i, %j] : memref<24x20xf32>
      %v = affine.load %y2[%i, %j] : memref<24x20xf32>
      %s = arith.addf %u, %v : f32
      %o = arith.mulf %c1, %s : f32
      affine.store %o, %imgOut[%i, %j] : memref<24x20xf32>
    }
  }
  affine.for %j = 0 to 20 {
    %r:3 = affine.for %i = 0 to 24 iter_args(%ym1 = %zero, %ym2 = %zero, %tm1 = %zero) -> (f32, f32, f32) {
      %x = affine.load %imgOut[%i, %j] : memref<24x20xf32>
      %t1 = arith.mulf %a1, %x : f32
      %t2 = arith.mulf %a2, %tm1 : f32
      %s1 = arith.addf %t1, %t2 : f32
      %t3 = arith.mulf %b1, %ym1 : f32
      %s2 = arith.addf %s1, %t3 : f32
      %t4 = arith.mulf %b2, %ym2 : f32
      %y = arith.addf %s2, %t4 : f32
      affine.store %y, %y1[%i, %j] : memref<24x20xf32>
      affine.yield %y, %ym1, %x : f32, f32, f32
    }
  }
  affine.for %j = 0 to 20 {
    %r:4 = affine.for %ii = 0 to 24 iter_args(%yp1 = %zero, %yp2 = %zero, %tp1 = %zero, %tp2 = %zero) -> (f32, f32, f32, f32) {
      %t1 = arith.mulf %a3, %tp1 : f32
      %t2 = arith.mulf %a4, %tp2 : f32
      %s1 = arith.addf %t1, %t2 : f32
      %t3 = arith.mulf %b1, %yp1 : f32
      %s2 = arith.addf %s1, %t3 : f32
      %t4 = arith.mulf %b2, %yp2 : f32
      %y = arith.addf %s2, %t4 : f32
      affine.store %y, %y2[-%ii + 23, %j] : memref<24x20xf32>
      %x = affine.load %imgOut[-%ii + 23, %j] : memref<24x20xf32>
      affine.yield %y, %yp1, %x, %tp1 : f32, f32, f32, f32
    }
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 20 {
      %u = affine.load %y1[%i, %j] : memref<24x20xf32>
      %v = affine.load %y2[%i, %j] : memref<24x20xf32>
      %s = arith.addf %u, %v : f32
      %o = arith.mulf %c1, %s : f32
      affine.store %o, %imgOut[%i, %j] : memref<24x20xf32>
    }
  }
  return
}
