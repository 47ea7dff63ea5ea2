// trisolv (PolyBench): forward substitution L * x = b with L lower triangular; the
// diagonal is first raised by N so that every input gives a well-conditioned system.
// scale: 24=N
func.func @trisolv(%L: memref<24x24xf64>, %x: memref<24xf64>, %b: memref<24xf64>) {
  %n = arith.constant 24 : index
  %ni = arith.index_cast %n : index to i64
  %shift = arith.sitofp %ni : i64 to f64
  affine.for %i = 0 to 24 {
    %d = affine.load %L[%i, %i] : memref<24x24xf64>
    %d2 = arith.addf %d, %shift : f64
    affine.store %d2, %L[%i, %i] : memref<24x24xf64>
  }
  affine.for %i = 0 to 24 {
    %bi = affine.load %b[%i] : memref<24xf64>
    affine.store %bi, %x[%i] : memref<24xf64>
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %l = affine.load %L[%i, %j] : memref<24x24xf64>
      %xj = affine.load %x[%j] : memref<24xf64>
      %p = arith.mulf %l, %xj : f64
      %xi = affine.load %x[%i] : memref<24xf64>
      %s = arith.subf %xi, %p : f64
      affine.store %s, %x[%i] : memref<24xf64>
    }
    %xi = affine.load %x[%i] : memref<24xf64>
    %lii = affine.load %L[%i, %i] : memref<24x24xf64>
    %q = arith.divf %xi, %lii : f64
    affine.store %q, %x[%i] : memref<24xf64>
  }
  return
}
