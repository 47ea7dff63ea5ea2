// bicg (PolyBench): s = A^T * r and q = A * p in one sweep.
// scale: 38=M 42=N
func.func @bicg(%A: memref<42x38xf32>, %s: memref<38xf32>, %q: memref<42xf32>, %p: memref<38xf32>, %r: memref<42xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 38 {
    affine.store %zero, %s[%i] : memref<38xf32>
  }
  affine.for %i = 0 to 42 {
    affine.store %zero, %q[%i] : memref<42xf32>
    affine.for %j = 0 to 38 {
      %sv = affine.load %s[%j] : memref<38xf32>
      %rv = affine.load %r[%i] : memref<42xf32>
      %a = affine.load %A[%i, %j] : memref<42x38xf32>
      %ra = arith.mulf %rv, %a : f32
      %s2 = arith.addf %sv, %ra : f32
      affine.store %s2, %s[%j] : memref<38xf32>
      %qv = affine.load %q[%i] : memref<42xf32>
      %pv = affine.load %p[%j] : memref<38xf32>
      %ap = arith.mulf %a, %pv : f32
      %q2 = arith.addf %qv, %ap : f32
      affine.store %q2, %q[%i] : memref<42xf32>
    }
  }
  return
}
