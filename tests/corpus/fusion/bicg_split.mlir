// bicg with its two products as sibling nests: s = A^T r, q = A p.
// scale: 20=M 24=N
func.func @bicg(%A: memref<20x24xf32>, %s: memref<24xf32>, %q: memref<20xf32>, %p: memref<24xf32>, %r: memref<20xf32>) {
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 24 {
      %sj = affine.load %s[%j] : memref<24xf32>
      %ri = affine.load %r[%i] : memref<20xf32>
      %a = affine.load %A[%i, %j] : memref<20x24xf32>
      %m = arith.mulf %ri, %a : f32
      %n = arith.addf %sj, %m : f32
      affine.store %n, %s[%j] : memref<24xf32>
    }
  }
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 24 {
      %qi = affine.load %q[%i] : memref<20xf32>
      %a = affine.load %A[%i, %j] : memref<20x24xf32>
      %pj = affine.load %p[%j] : memref<24xf32>
      %m = arith.mulf %a, %pj : f32
      %n = arith.addf %qi, %m : f32
      affine.store %n, %q[%i] : memref<20xf32>
    }
  }
  return
}
