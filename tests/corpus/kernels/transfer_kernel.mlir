// Transfers as mlir-opt's -affine-super-vectorize writes them: B = (A + A^T) / 2 + c[i] + c[0:4]
// four columns at a time (a row of A, a column of A through a permutation map, c[i] broadcast
// to every lane, the first four elements of c in bounds), the last vector of each row cut at
// the row's end (its lanes past the end read the padding and are not written); then each
// row of B adds the row above it, again four columns at a time.
// scale: 22=N
#column = affine_map<(d0, d1) -> (d0)>
#broadcast = affine_map<(d0) -> (0)>
#above = affine_map<(d0) -> (d0 - 1)>
func.func @transfer_kernel(%A: memref<22x22xf32>, %B: memref<22x22xf32>, %c: memref<22xf32>) {
  %p = ub.poison : f32
  %c0 = arith.constant 0 : index
  %half = arith.constant dense<5.000000e-01> : vector<4xf32>
  %head = vector.transfer_read %c[%c0], %p {in_bounds = [true]} : memref<22xf32>, vector<4xf32>
  affine.for %i = 0 to 22 {
    %ci = vector.transfer_read %c[%i], %p {permutation_map = #broadcast} : memref<22xf32>, vector<4xf32>
    affine.for %j = 0 to 22 step 4 {
      %row = vector.transfer_read %A[%i, %j], %p : memref<22x22xf32>, vector<4xf32>
      %col = vector.transfer_read %A[%j, %i], %p {permutation_map = #column} : memref<22x22xf32>, vector<4xf32>
      %sum = arith.addf %row, %col : vector<4xf32>
      %mean = arith.mulf %sum, %half : vector<4xf32>
      %shifted = arith.addf %mean, %ci : vector<4xf32>
      %out = arith.addf %shifted, %head : vector<4xf32>
      vector.transfer_write %out, %B[%i, %j] : vector<4xf32>, memref<22x22xf32>
    }
  }
  affine.for %i = 1 to 22 {
    affine.for %j = 0 to 22 step 4 {
      %up = affine.apply #above(%i)
      %prev = vector.transfer_read %B[%up, %j], %p : memref<22x22xf32>, vector<4xf32>
      %here = vector.transfer_read %B[%i, %j], %p : memref<22x22xf32>, vector<4xf32>
      %acc = arith.addf %here, %prev : vector<4xf32>
      vector.transfer_write %acc, %B[%i, %j] : vector<4xf32>, memref<22x22xf32>
    }
  }
  return
}
