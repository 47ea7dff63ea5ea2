// LU decomposition without pivoting (triangular, three-deep, in place).
func.func @lu(%A: memref<6x6xf32>) {
  affine.for %k = 0 to 6 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 6 {
      %d = affine.load %A[%k, %k] : memref<6x6xf32>
      %a = affine.load %A[%k, %j] : memref<6x6xf32>
      %q = arith.divf %a, %d : f32
      affine.store %q, %A[%k, %j] : memref<6x6xf32>
    }
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to 6 {
      affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 6 {
        %l = affine.load %A[%i, %k] : memref<6x6xf32>
        %u = affine.load %A[%k, %j] : memref<6x6xf32>
        %x = affine.load %A[%i, %j] : memref<6x6xf32>
        %p = arith.mulf %l, %u : f32
        %s = arith.subf %x, %p : f32
        affine.store %s, %A[%i, %j] : memref<6x6xf32>
      }
    }
  }
  return
}
