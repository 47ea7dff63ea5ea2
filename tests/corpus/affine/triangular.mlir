// Triangular nests: syrk-like lower triangle and an LU-like update with bounds on outer IVs.
func.func @syrk(%A: memref<32x32xf32>, %C: memref<32x32xf32>, %alpha: f32) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<32x32xf32>
        %b = affine.load %A[%j, %k] : memref<32x32xf32>
        %c = affine.load %C[%i, %j] : memref<32x32xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.mulf %alpha, %p : f32
        %s = arith.addf %c, %q : f32
        affine.store %s, %C[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}
func.func @lu(%A: memref<32x32xf32>) {
  affine.for %k = 0 to 32 {
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to 32 {
      %p = affine.load %A[%k, %k] : memref<32x32xf32>
      %a = affine.load %A[%i, %k] : memref<32x32xf32>
      %l = arith.divf %a, %p : f32
      affine.store %l, %A[%i, %k] : memref<32x32xf32>
      affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 32 {
        %x = affine.load %A[%i, %j] : memref<32x32xf32>
        %y = affine.load %A[%k, %j] : memref<32x32xf32>
        %m = arith.mulf %l, %y : f32
        %d = arith.subf %x, %m : f32
        affine.store %d, %A[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}
