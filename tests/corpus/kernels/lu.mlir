// lu (PolyBench): in-place LU decomposition without pivoting; the diagonal is first
// raised by N so that every input gives a well-conditioned matrix.
// scale: 24=N
func.func @lu(%A: memref<24x24xf32>) {
  %n = arith.constant 24 : index
  %ni = arith.index_cast %n : index to i64
  %shift = arith.sitofp %ni : i64 to f32
  affine.for %i = 0 to 24 {
    %d = affine.load %A[%i, %i] : memref<24x24xf32>
    %d2 = arith.addf %d, %shift : f32
    affine.store %d2, %A[%i, %i] : memref<24x24xf32>
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) {
        %aik = affine.load %A[%i, %k] : memref<24x24xf32>
        %akj = affine.load %A[%k, %j] : memref<24x24xf32>
        %p = arith.mulf %aik, %akj : f32
        %aij = affine.load %A[%i, %j] : memref<24x24xf32>
        %s = arith.subf %aij, %p : f32
        affine.store %s, %A[%i, %j] : memref<24x24xf32>
      }
      %aij = affine.load %A[%i, %j] : memref<24x24xf32>
      %ajj = affine.load %A[%j, %j] : memref<24x24xf32>
      %q = arith.divf %aij, %ajj : f32
      affine.store %q, %A[%i, %j] : memref<24x24xf32>
    }
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 24 {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %aik = affine.load %A[%i, %k] : memref<24x24xf32>
        %akj = affine.load %A[%k, %j] : memref<24x24xf32>
        %p = arith.mulf %aik, %akj : f32
        %aij = affine.load %A[%i, %j] : memref<24x24xf32>
        %s = arith.subf %aij, %p : f32
        affine.store %s, %A[%i, %j] : memref<24x24xf32>
      }
    }
  }
  return
}
