// doitgen (PolyBench): A[r][q][:] = A[r][q][:] * C4, through the scratch vector sum.
// scale: 10=NR 8=NQ 12=NP
func.func @doitgen(%A: memref<10x8x12xf32>, %C4: memref<12x12xf32>, %sum: memref<12xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %r = 0 to 10 {
    affine.for %q = 0 to 8 {
      affine.for %p = 0 to 12 {
        affine.store %zero, %sum[%p] : memref<12xf32>
        affine.for %s = 0 to 12 {
          %a = affine.load %A[%r, %q, %s] : memref<10x8x12xf32>
          %c = affine.load %C4[%s, %p] : memref<12x12xf32>
          %m = arith.mulf %a, %c : f32
          %t = affine.load %sum[%p] : memref<12xf32>
          %n = arith.addf %t, %m : f32
          affine.store %n, %sum[%p] : memref<12xf32>
        }
      }
      affine.for %p = 0 to 12 {
        %t = affine.load %sum[%p] : memref<12xf32>
        affine.store %t, %A[%r, %q, %p] : memref<10x8x12xf32>
      }
    }
  }
  return
}
