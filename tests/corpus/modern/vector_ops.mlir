// vector: broadcast, fma, reductions (with an accumulator and fastmath flags), extract and
// insert (static, dynamic and partial positions), vector loads and stores, dense vector
// constants and element-wise arith/math on vectors.
func.func @vector_ops(%A: memref<16x32xf32>, %x: f32, %i: index, %m: vector<2x8xi32>) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.000000e+00> : vector<8xf32>
  %steps = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
  %b = vector.broadcast %x : f32 to vector<8xf32>
  %r2 = vector.broadcast %steps : vector<8xi32> to vector<2x8xi32>
  %v = affine.vector_load %A[%i, %c0 + 8] : memref<16x32xf32>, vector<8xf32>
  %f = vector.fma %b, %v, %zero : vector<8xf32>
  %s = math.sqrt %f : vector<8xf32>
  %g = arith.mulf %s, %v fastmath<contract> : vector<8xf32>
  affine.vector_store %g, %A[%i + 1, 0] : memref<16x32xf32>, vector<8xf32>
  %sum = vector.reduction <add>, %g : vector<8xf32> into f32
  %max = vector.reduction <maximumf>, %g, %sum fastmath<nnan> : vector<8xf32> into f32
  %mi = vector.reduction <minsi>, %steps : vector<8xi32> into i32
  %e = vector.extract %g[3] : f32 from vector<8xf32>
  %ed = vector.extract %m[%i, 2] : i32 from vector<2x8xi32>
  %row = vector.extract %m[1] : vector<8xi32> from vector<2x8xi32>
  %ins = vector.insert %mi, %m [0, %i] : i32 into vector<2x8xi32>
  %insrow = vector.insert %row, %r2 [0] : vector<8xi32> into vector<2x8xi32>
  %one = vector.broadcast %e : f32 to vector<1xf32>
  %lane = vector.extract %one[0] : f32 from vector<1xf32>
  %t = arith.addf %max, %lane : f32
  return %t : f32
}
