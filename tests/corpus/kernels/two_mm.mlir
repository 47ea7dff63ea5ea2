// 2mm (PolyBench): tmp = alpha * A * B; D = beta * D + tmp * C.
// scale: 16=NI 18=NJ 20=NK 22=NL
func.func @two_mm(%tmp: memref<16x18xf32>, %A: memref<16x20xf32>, %B: memref<20x18xf32>, %C: memref<18x22xf32>, %D: memref<16x22xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 18 {
      affine.store %zero, %tmp[%i, %j] : memref<16x18xf32>
      affine.for %k = 0 to 20 {
        %a = affine.load %A[%i, %k] : memref<16x20xf32>
        %aa = arith.mulf %alpha, %a : f32
        %b = affine.load %B[%k, %j] : memref<20x18xf32>
        %p = arith.mulf %aa, %b : f32
        %t = affine.load %tmp[%i, %j] : memref<16x18xf32>
        %s = arith.addf %t, %p : f32
        affine.store %s, %tmp[%i, %j] : memref<16x18xf32>
      }
    }
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 22 {
      %d = affine.load %D[%i, %j] : memref<16x22xf32>
      %db = arith.mulf %d, %beta : f32
      affine.store %db, %D[%i, %j] : memref<16x22xf32>
      affine.for %k = 0 to 18 {
        %t = affine.load %tmp[%i, %k] : memref<16x18xf32>
        %c = affine.load %C[%k, %j] : memref<18x22xf32>
        %p = arith.mulf %t, %c : f32
        %d2 = affine.load %D[%i, %j] : memref<16x22xf32>
        %s = arith.addf %d2, %p : f32
        affine.store %s, %D[%i, %j] : memref<16x22xf32>
      }
    }
  }
  return
}
