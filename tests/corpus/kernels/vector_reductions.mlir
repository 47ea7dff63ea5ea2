// vector.reduction in order and at the edges: a float add starts from +0.0 (lanes that are
// all -0.0 sum to +0.0), lanes fold left to right (1e8 + 1 - 1e8 + 1 is 1 in f32), an
// accumulator comes first; integer kinds wrap at their width. Results are stored as their
// bits (i32) so that a sign of zero shows in the checksums.
// scale: 16=N
func.func @vector_reductions(%X: memref<16x8xf32>, %bits: memref<16x8xi32>, %I: memref<16x8xi8>) {
  %negzero = arith.constant dense<-0.000000e+00> : vector<8xf32>
  %order = arith.constant dense<[1.000000e+08, 1.000000e+00, -1.000000e+08, 1.000000e+00]> : vector<4xf32>
  affine.for %i = 0 to 16 {
    %x = affine.vector_load %X[%i, 0] : memref<16x8xf32>, vector<8xf32>
    %xi = arith.index_cast %i : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %acc = arith.negf %xf : f32
    %r0 = vector.reduction <add>, %negzero : vector<8xf32> into f32
    %r1 = vector.reduction <add>, %order : vector<4xf32> into f32
    %r2 = vector.reduction <add>, %x, %acc : vector<8xf32> into f32
    %r3 = vector.reduction <mul>, %x : vector<8xf32> into f32
    %r4 = vector.reduction <minimumf>, %x : vector<8xf32> into f32
    %r5 = vector.reduction <maxnumf>, %x, %acc : vector<8xf32> into f32
    %v = affine.vector_load %I[%i, 0] : memref<16x8xi8>, vector<8xi8>
    %s = vector.reduction <add>, %v : vector<8xi8> into i8
    %m = vector.reduction <mul>, %v : vector<8xi8> into i8
    %xo = vector.reduction <xor>, %v, %s : vector<8xi8> into i8
    %mu = vector.reduction <maxui>, %v : vector<8xi8> into i8
    %b0 = arith.bitcast %r0 : f32 to i32
    %b1 = arith.bitcast %r1 : f32 to i32
    %b2 = arith.bitcast %r2 : f32 to i32
    %b3 = arith.bitcast %r3 : f32 to i32
    %b4 = arith.bitcast %r4 : f32 to i32
    %b5 = arith.bitcast %r5 : f32 to i32
    %e6 = arith.extsi %m : i8 to i32
    %e7 = arith.extui %xo : i8 to i32
    affine.store %b0, %bits[%i, 0] : memref<16x8xi32>
    affine.store %b1, %bits[%i, 1] : memref<16x8xi32>
    affine.store %b2, %bits[%i, 2] : memref<16x8xi32>
    affine.store %b3, %bits[%i, 3] : memref<16x8xi32>
    affine.store %b4, %bits[%i, 4] : memref<16x8xi32>
    affine.store %b5, %bits[%i, 5] : memref<16x8xi32>
    affine.store %e6, %bits[%i, 6] : memref<16x8xi32>
    affine.store %e7, %bits[%i, 7] : memref<16x8xi32>
    affine.store %s, %I[%i, 0] : memref<16x8xi8>
    affine.store %mu, %I[%i, 1] : memref<16x8xi8>
  }
  return
}
