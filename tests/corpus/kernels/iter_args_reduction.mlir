// Reductions carried in iter_args: row dot products (f32), the sum of their squares (f64),
// and a running (sum, maximum) pair through a two-value loop.
// scale: 30=M 40=N
func.func @iter_args_reduction(%A: memref<30x40xf32>, %x: memref<40xf32>, %rows: memref<30xf32>, %total: memref<1xf64>, %stats: memref<2xf32>) {
  %zf = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFF800000 : f32
  %sum = affine.for %i = 0 to 30 iter_args(%acc = %zd) -> (f64) {
    %r = affine.for %j = 0 to 40 iter_args(%racc = %zf) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<30x40xf32>
      %xv = affine.load %x[%j] : memref<40xf32>
      %p = arith.mulf %a, %xv : f32
      %n = arith.addf %racc, %p : f32
      affine.yield %n : f32
    }
    affine.store %r, %rows[%i] : memref<30xf32>
    %rd = arith.extf %r : f32 to f64
    %sq = arith.mulf %rd, %rd : f64
    %n = arith.addf %acc, %sq : f64
    affine.yield %n : f64
  }
  affine.store %sum, %total[0] : memref<1xf64>
  %s:2 = affine.for %i = 0 to 30 iter_args(%s0 = %zf, %m0 = %ninf) -> (f32, f32) {
    %v = affine.load %rows[%i] : memref<30xf32>
    %s1 = arith.addf %s0, %v : f32
    %m1 = arith.maximumf %m0, %v : f32
    affine.yield %s1, %m1 : f32, f32
  }
  affine.store %s#0, %stats[0] : memref<2xf32>
  affine.store %s#1, %stats[1] : memref<2xf32>
  return
}
