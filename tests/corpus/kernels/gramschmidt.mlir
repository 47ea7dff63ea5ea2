// gramschmidt (PolyBench): QR decomposition of the M x N matrix A (M >= N) by modified
// Gram-Schmidt; the column norm is carried in iter_args (math.sqrt). A[k][k] is first
// raised by M so that the columns are well conditioned for every input.
// scale: 24=M 20=N
func.func @gramschmidt(%A: memref<24x20xf64>, %R: memref<20x20xf64>, %Q: memref<24x20xf64>) {
  %zero = arith.constant 0.0 : f64
  %m = arith.constant 24 : index
  %mi = arith.index_cast %m : index to i64
  %shift = arith.sitofp %mi : i64 to f64
  affine.for %k = 0 to 20 {
    %d = affine.load %A[%k, %k] : memref<24x20xf64>
    %d2 = arith.addf %d, %shift : f64
    affine.store %d2, %A[%k, %k] : memref<24x20xf64>
  }
  affine.for %k = 0 to 20 {
    %nrm = affine.for %i = 0 to 24 iter_args(%acc = %zero) -> (f64) {
      %a = affine.load %A[%i, %k] : memref<24x20xf64>
      %p = arith.mulf %a, %a : f64
      %next = arith.addf %acc, %p : f64
      affine.yield %next : f64
    }
    %rkk = math.sqrt %nrm : f64
    affine.store %rkk, %R[%k, %k] : memref<20x20xf64>
    affine.for %i = 0 to 24 {
      %a = affine.load %A[%i, %k] : memref<24x20xf64>
      %r = affine.load %R[%k, %k] : memref<20x20xf64>
      %q = arith.divf %a, %r : f64
      affine.store %q, %Q[%i, %k] : memref<24x20xf64>
    }
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 20 {
      affine.store %zero, %R[%k, %j] : memref<20x20xf64>
      affine.for %i = 0 to 24 {
        %q = affine.load %Q[%i, %k] : memref<24x20xf64>
        %a = affine.load %A[%i, %j] : memref<24x20xf64>
        %p = arith.mulf %q, %a : f64
        %r = affine.load %R[%k, %j] : memref<20x20xf64>
        %s = arith.addf %r, %p : f64
        affine.store %s, %R[%k, %j] : memref<20x20xf64>
      }
      affine.for %i = 0 to 24 {
        %a = affine.load %A[%i, %j] : memref<24x20xf64>
        %q = affine.load %Q[%i, %k] : memref<24x20xf64>
        %r = affine.load %R[%k, %j] : memref<20x20xf64>
        %p = arith.mulf %q, %r : f64
        %s = arith.subf %a, %p : f64
        affine.store %s, %A[%i, %j] : memref<24x20xf64>
      }
    }
  }
  return
}
