// gemver (PolyBench): A += u1 * v1^T + u2 * v2^T, x += beta * A^T * y + z,
// w += alpha * A * x.
// scale: 24=N
func.func @gemver(%A: memref<24x24xf32>, %u1: memref<24xf32>, %v1: memref<24xf32>, %u2: memref<24xf32>, %v2: memref<24xf32>, %w: memref<24xf32>, %x: memref<24xf32>, %y: memref<24xf32>, %z: memref<24xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %a = affine.load %A[%i, %j] : memref<24x24xf32>
      %p1 = affine.load %u1[%i] : memref<24xf32>
      %q1 = affine.load %v1[%j] : memref<24xf32>
      %p2 = affine.load %u2[%i] : memref<24xf32>
      %q2 = affine.load %v2[%j] : memref<24xf32>
      %m1 = arith.mulf %p1, %q1 : f32
      %s1 = arith.addf %a, %m1 : f32
      %m2 = arith.mulf %p2, %q2 : f32
      %s2 = arith.addf %s1, %m2 : f32
      affine.store %s2, %A[%i, %j] : memref<24x24xf32>
    }
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %xv = affine.load %x[%i] : memref<24xf32>
      %a = affine.load %A[%j, %i] : memref<24x24xf32>
      %ba = arith.mulf %beta, %a : f32
      %yv = affine.load %y[%j] : memref<24xf32>
      %p = arith.mulf %ba, %yv : f32
      %s = arith.addf %xv, %p : f32
      affine.store %s, %x[%i] : memref<24xf32>
    }
  }
  affine.for %i = 0 to 24 {
    %xv = affine.load %x[%i] : memref<24xf32>
    %zv = affine.load %z[%i] : memref<24xf32>
    %s = arith.addf %xv, %zv : f32
    affine.store %s, %x[%i] : memref<24xf32>
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %wv = affine.load %w[%i] : memref<24xf32>
      %a = affine.load %A[%i, %j] : memref<24x24xf32>
      %aa = arith.mulf %alpha, %a : f32
      %xv = affine.load %x[%j] : memref<24xf32>
      %p = arith.mulf %aa, %xv : f32
      %s = arith.addf %wv, %p : f32
      affine.store %s, %w[%i] : memref<24xf32>
    }
  }
  return
}
