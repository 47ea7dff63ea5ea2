// ludcmp (PolyBench): LU decomposition without pivoting, then forward (L * y = b) and
// backward (U * x = y, i running down) substitution; the running value w is carried in
// iter_args. The diagonal is first raised by N so that every input is well conditioned.
// scale: 24=N 23=N-1
func.func @ludcmp(%A: memref<24x24xf64>, %b: memref<24xf64>, %x: memref<24xf64>, %y: memref<24xf64>) {
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
      %a0 = affine.load %A[%i, %j] : memref<24x24xf64>
      %w = affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) iter_args(%acc = %a0) -> (f64) {
        %aik = affine.load %A[%i, %k] : memref<24x24xf64>
        %akj = affine.load %A[%k, %j] : memref<24x24xf64>
        %p = arith.mulf %aik, %akj : f64
        %next = arith.subf %acc, %p : f64
        affine.yield %next : f64
      }
      %ajj = affine.load %A[%j, %j] : memref<24x24xf64>
      %q = arith.divf %w, %ajj : f64
      affine.store %q, %A[%i, %j] : memref<24x24xf64>
    }
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 24 {
      %a0 = affine.load %A[%i, %j] : memref<24x24xf64>
      %w = affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %a0) -> (f64) {
        %aik = affine.load %A[%i, %k] : memref<24x24xf64>
        %akj = affine.load %A[%k, %j] : memref<24x24xf64>
        %p = arith.mulf %aik, %akj : f64
        %next = arith.subf %acc, %p : f64
        affine.yield %next : f64
      }
      affine.store %w, %A[%i, %j] : memref<24x24xf64>
    }
  }
  affine.for %i = 0 to 24 {
    %b0 = affine.load %b[%i] : memref<24xf64>
    %w = affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %b0) -> (f64) {
      %a = affine.load %A[%i, %j] : memref<24x24xf64>
      %yj = affine.load %y[%j] : memref<24xf64>
      %p = arith.mulf %a, %yj : f64
      %next = arith.subf %acc, %p : f64
      affine.yield %next : f64
    }
    affine.store %w, %y[%i] : memref<24xf64>
  }
  affine.for %ii = 0 to 24 {
    %y0 = affine.load %y[-%ii + 23] : memref<24xf64>
    %w = affine.for %j = affine_map<(d0) -> (-d0 + 24)>(%ii) to 24 iter_args(%acc = %y0) -> (f64) {
      %a = affine.load %A[-%ii + 23, %j] : memref<24x24xf64>
      %xj = affine.load %x[%j] : memref<24xf64>
      %p = arith.mulf %a, %xj : f64
      %next = arith.subf %acc, %p : f64
      affine.yield %next : f64
    }
    %aii = affine.load %A[-%ii + 23, -%ii + 23] : memref<24x24xf64>
    %q = arith.divf %w, %aii : f64
    affine.store %q, %x[-%ii + 23] : memref<24xf64>
  }
  return
}
