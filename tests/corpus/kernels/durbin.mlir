// durbin (PolyBench): Levinson-Durbin recursion for the Toeplitz system of r; alpha and
// beta are carried across k and the dot product sum across i in iter_args. r is first
// divided by 2N so that |alpha| stays below 1 for every input.
// scale: 24=N
func.func @durbin(%r: memref<24xf64>, %y: memref<24xf64>, %z: memref<24xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %n = arith.constant 24 : index
  %ni = arith.index_cast %n : index to i64
  %float_n = arith.sitofp %ni : i64 to f64
  %scale = arith.mulf %two, %float_n : f64
  affine.for %i = 0 to 24 {
    %v = affine.load %r[%i] : memref<24xf64>
    %s = arith.divf %v, %scale : f64
    affine.store %s, %r[%i] : memref<24xf64>
  }
  %r0 = affine.load %r[0] : memref<24xf64>
  %alpha0 = arith.negf %r0 : f64
  affine.store %alpha0, %y[0] : memref<24xf64>
  %last:2 = affine.for %k = 1 to 24 iter_args(%alpha = %alpha0, %beta = %one) -> (f64, f64) {
    %aa = arith.mulf %alpha, %alpha : f64
    %f = arith.subf %one, %aa : f64
    %beta1 = arith.mulf %f, %beta : f64
    %sum = affine.for %i = 0 to affine_map<(d0) -> (d0)>(%k) iter_args(%acc = %zero) -> (f64) {
      %rv = affine.load %r[%k - %i - 1] : memref<24xf64>
      %yv = affine.load %y[%i] : memref<24xf64>
      %p = arith.mulf %rv, %yv : f64
      %next = arith.addf %acc, %p : f64
      affine.yield %next : f64
    }
    %rk = affine.load %r[%k] : memref<24xf64>
    %t = arith.addf %rk, %sum : f64
    %nt = arith.negf %t : f64
    %alpha1 = arith.divf %nt, %beta1 : f64
    affine.for %i = 0 to affine_map<(d0) -> (d0)>(%k) {
      %yi = affine.load %y[%i] : memref<24xf64>
      %yk = affine.load %y[%k - %i - 1] : memref<24xf64>
      %p = arith.mulf %alpha1, %yk : f64
      %s = arith.addf %yi, %p : f64
      affine.store %s, %z[%i] : memref<24xf64>
    }
    affine.for %i = 0 to affine_map<(d0) -> (d0)>(%k) {
      %zi = affine.load %z[%i] : memref<24xf64>
      affine.store %zi, %y[%i] : memref<24xf64>
    }
    affine.store %alpha1, %y[%k] : memref<24xf64>
    affine.yield %alpha1, %beta1 : f64, f64
  }
  return
}
