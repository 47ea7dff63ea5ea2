// 2mm-shaped chain with a private intermediate: T = A * B; D = T * C.
// scale: 12=NI 14=NK 10=NJ 16=NL
func.func @two_mm(%A: memref<12x14xf32>, %B: memref<14x10xf32>, %C: memref<10x16xf32>, %D: memref<12x16xf32>) {
  %T = memref.alloc() : memref<12x10xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 10 {
      affine.store %zero, %T[%i, %j] : memref<12x10xf32>
      affine.for %k = 0 to 14 {
        %a = affine.load %A[%i, %k] : memref<12x14xf32>
        %b = affine.load %B[%k, %j] : memref<14x10xf32>
        %p = arith.mulf %a, %b : f32
        %t = affine.load %T[%i, %j] : memref<12x10xf32>
        %s = arith.addf %t, %p : f32
        affine.store %s, %T[%i, %j] : memref<12x10xf32>
      }
    }
  }
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %D[%i, %j] : memref<12x16xf32>
      affine.for %k = 0 to 10 {
        %t = affine.load %T[%i, %k] : memref<12x10xf32>
        %c = affine.load %C[%k, %j] : memref<10x16xf32>
        %p = arith.mulf %t, %c : f32
        %d = affine.load %D[%i, %j] : memref<12x16xf32>
        %s = arith.addf %d, %p : f32
        affine.store %s, %D[%i, %j] : memref<12x16xf32>
      }
    }
  }
  memref.dealloc %T : memref<12x10xf32>
  return
}
