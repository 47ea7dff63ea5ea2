// cholesky (PolyBench): in-place Cholesky factor of the lower triangle (with math.sqrt);
// the diagonal is first raised by N so that the matrix is positive definite.
// scale: 24=N
func.func @cholesky(%A: memref<24x24xf64>) {
  %n = arith.constant 24 : index
  %ni = arith.index_cast %n : index to i64
  %shift = arith.sitofp %ni : i64 to f64
  affine.for %i = 0 to 24 {
    %d = affine.load %A[%i, %i] : memref<24x24xf64>
    %d2 = arith.addf %d, %shift : f64
    affine.store %d2, %A[%i, %i] : memref<24x24xf64>
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) {
        %aik = affine.load %A[%i, %k] : memref<24x24xf64>
        %ajk = affine.load %A[%j, %k] : memref<24x24xf64>
        %p = arith.mulf %aik, %ajk : f64
        %aij = affine.load %A[%i, %j] : memref<24x24xf64>
        %s = arith.subf %aij, %p : f64
        affine.store %s, %A[%i, %j] : memref<24x24xf64>
      }
      %aij = affine.load %A[%i, %j] : memref<24x24xf64>
      %ajj = affine.load %A[%j, %j] : memref<24x24xf64>
      %q = arith.divf %aij, %ajj : f64
      affine.store %q, %A[%i, %j] : memref<24x24xf64>
    }
    affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
      %aik = affine.load %A[%i, %k] : memref<24x24xf64>
      %p = arith.mulf %aik, %aik : f64
      %aii = affine.load %A[%i, %i] : memref<24x24xf64>
      %s = arith.subf %aii, %p : f64
      affine.store %s, %A[%i, %i] : memref<24x24xf64>
    }
    %aii = affine.load %A[%i, %i] : memref<24x24xf64>
    %r = math.sqrt %aii : f64
    affine.store %r, %A[%i, %i] : memref<24x24xf64>
  }
  return
}
