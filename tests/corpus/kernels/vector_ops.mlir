// Vector ops lane by lane: f64 row sums and maxima through vector.reduction (with and
// without an accumulator), i32 wrap-around arithmetic with a compare-and-select mask,
// integer reductions, extension to i64, casts, vector<1xf32> and vector<3xf64> tails,
// math on vectors, dense constants, extract/insert at static and dynamic positions,
// 2-D vectors and a strided memref.
// scale: 12=N
func.func @vector_ops(%X: memref<12x16xf64>, %stats: memref<12x4xf64>, %I: memref<12x8xi32>, %W: memref<12x8xi64>, %Y: memref<12x5xf32>, %S: memref<12x8xf32, strided<[11, 1], offset: 3>>, %Q: memref<4x8xf32>) {
  %zero = arith.constant dense<0.000000e+00> : vector<4xf64>
  %steps = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
  %big = arith.constant dense<1000003> : vector<8xi32>
  %half = arith.constant 5.000000e-01 : f32
  %ones = arith.constant dense<1.250000e+00> : vector<8xf32>
  %c3 = arith.constant 3 : index
  affine.for %i = 0 to 12 {
    // f64: four lanes of partial sums, reduced in order with an accumulator
    %acc = affine.for %j = 0 to 12 step 4 iter_args(%a = %zero) -> (vector<4xf64>) {
      %x = affine.vector_load %X[%i, %j] : memref<12x16xf64>, vector<4xf64>
      %sq = arith.mulf %x, %x : vector<4xf64>
      %s = arith.addf %a, %sq : vector<4xf64>
      affine.yield %s : vector<4xf64>
    }
    %t = affine.vector_load %X[%i, 12] : memref<12x16xf64>, vector<3xf64>
    %tsum = vector.reduction <add>, %t : vector<3xf64> into f64
    %total = vector.reduction <add>, %acc, %tsum : vector<4xf64> into f64
    %root = math.sqrt %acc : vector<4xf64>
    %max = vector.reduction <maximumf>, %root : vector<4xf64> into f64
    %lane2 = vector.extract %acc[2] : f64 from vector<4xf64>
    %pair = vector.insert %total, %root [%c3] : f64 into vector<4xf64>
    affine.vector_store %pair, %stats[%i, 0] : memref<12x4xf64>, vector<4xf64>
    affine.store %max, %stats[%i, 0] : memref<12x4xf64>
    affine.store %lane2, %stats[%i, 1] : memref<12x4xf64>
    // i32: wrap-around, a mask, integer reductions, extension and casts
    %v = affine.vector_load %I[%i, 0] : memref<12x8xi32>, vector<8xi32>
    %iv = arith.index_cast %i : index to i32
    %ivs = vector.broadcast %iv : i32 to vector<8xi32>
    %m = arith.muli %v, %big : vector<8xi32>
    %m2 = arith.muli %m, %m : vector<8xi32>
    %d = arith.subi %m2, %steps : vector<8xi32>
    %odd = arith.andi %d, %ivs : vector<8xi32>
    %lt = arith.cmpi slt, %d, %odd : vector<8xi32>
    %sel = arith.select %lt, %d, %odd : vector<8xi1>, vector<8xi32>
    %q = arith.divsi %sel, %big : vector<8xi32>
    %w = arith.extsi %q : vector<8xi32> to vector<8xi64>
    %sh = arith.shrui %m2, %steps : vector<8xi32>
    %mx = vector.reduction <maxsi>, %sh : vector<8xi32> into i32
    %xr = vector.reduction <xor>, %m2, %mx : vector<8xi32> into i32
    %mu = vector.reduction <minui>, %d : vector<8xi32> into i32
    %half_i = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)
    %w2 = vector.insert %mu, %sel [%half_i] : i32 into vector<8xi32>
    affine.vector_store %w, %W[%i, 0] : memref<12x8xi64>, vector<8xi64>
    affine.vector_store %w2, %I[%i, 0] : memref<12x8xi32>, vector<8xi32>
    %xr64 = arith.extui %xr : i32 to i64
    affine.store %xr64, %W[%i, 7] : memref<12x8xi64>
    // f32: casts, a one-lane vector, a dynamic extract, a strided source
    %f = arith.sitofp %v : vector<8xi32> to vector<8xf32>
    %g = affine.vector_load %S[%i, 0] : memref<12x8xf32, strided<[11, 1], offset: 3>>, vector<8xf32>
    %g1 = arith.addf %g, %ones : vector<8xf32>
    %h = arith.divf %f, %g1 : vector<8xf32>
    %hv = vector.broadcast %half : f32 to vector<8xf32>
    %k = math.floor %h : vector<8xf32>
    %l = arith.maximumf %k, %hv : vector<8xf32>
    %third_i = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%i)
    %e = vector.extract %l[%third_i] : f32 from vector<8xf32>
    %one = affine.vector_load %Y[%i, 4] : memref<12x5xf32>, vector<1xf32>
    %eb = vector.broadcast %e : f32 to vector<1xf32>
    %n = arith.subf %one, %eb : vector<1xf32>
    affine.vector_store %n, %Y[%i, 4] : memref<12x5xf32>, vector<1xf32>
    %l0 = vector.extract %l[0] : f32 from vector<8xf32>
    %four = vector.broadcast %l0 : f32 to vector<1xf32>
    %m4 = arith.minnumf %four, %n : vector<1xf32>
    affine.vector_store %m4, %Y[%i, 3] : memref<12x5xf32>, vector<1xf32>
    affine.vector_store %l, %S[%i, 0] : memref<12x8xf32, strided<[11, 1], offset: 3>>, vector<8xf32>
  }
  // 2-D vectors (in registers: MLIR 22 lowers only 1-D vector loads and stores): two rows
  // of Q built into a vector<2x8xf32>, swapped through extract/insert, scaled by a row
  affine.for %r = 0 to 4 step 2 {
    %q0 = affine.vector_load %Q[%r, 0] : memref<4x8xf32>, vector<8xf32>
    %q1 = affine.vector_load %Q[%r + 1, 0] : memref<4x8xf32>, vector<8xf32>
    %rows = vector.broadcast %q0 : vector<8xf32> to vector<2x8xf32>
    %blk = vector.insert %q1, %rows [1] : vector<8xf32> into vector<2x8xf32>
    %row0 = vector.extract %blk[0] : vector<8xf32> from vector<2x8xf32>
    %row1 = vector.extract %blk[1] : vector<8xf32> from vector<2x8xf32>
    %sw = vector.insert %row1, %blk [0] : vector<8xf32> into vector<2x8xf32>
    %sw2 = vector.insert %row0, %sw [1] : vector<8xf32> into vector<2x8xf32>
    %b2 = vector.broadcast %row0 : vector<8xf32> to vector<2x8xf32>
    %p = arith.mulf %sw2, %b2 : vector<2x8xf32>
    %fm = vector.fma %p, %b2, %sw2 : vector<2x8xf32>
    %out0 = vector.extract %fm[0] : vector<8xf32> from vector<2x8xf32>
    %out1 = vector.extract %fm[1] : vector<8xf32> from vector<2x8xf32>
    affine.vector_store %out0, %Q[%r, 0] : memref<4x8xf32>, vector<8xf32>
    affine.vector_store %out1, %Q[%r + 1, 0] : memref<4x8xf32>, vector<8xf32>
  }
  return
}
