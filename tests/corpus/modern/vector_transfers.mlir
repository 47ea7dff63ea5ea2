// vector.transfer_read/write on memrefs (as -affine-super-vectorize writes them) and ub.poison:
// minor identity maps (elided), transposes, broadcasts, in_bounds, masks, rank 0.
#minor = affine_map<(d0, d1) -> (d1)>
#column = affine_map<(d0, d1) -> (d0)>
#transpose = affine_map<(d0, d1) -> (d1, d0)>
#broadcast = affine_map<(d0, d1) -> (0, d1)>
#scalar = affine_map<(d0) -> (0)>
func.func @transfers(%A: memref<16x16xf32>, %B: memref<?x16xi32>, %S: memref<f64>, %i: index, %j: index, %m: vector<4xi1>, %m2: vector<8x4xi1>) -> vector<4xf32> {
  %p = ub.poison : f32
  %pv = ub.poison : vector<4xf32>
  %q = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %d = arith.constant 0.0 : f64
  %0 = vector.transfer_read %A[%i, %j], %p {permutation_map = #minor} : memref<16x16xf32>, vector<4xf32>
  %1 = vector.transfer_read %A[%i, %j], %p {in_bounds = [true], permutation_map = #column} : memref<16x16xf32>, vector<4xf32>
  %2 = vector.transfer_read %A[%i, %j], %p {permutation_map = #transpose} : memref<16x16xf32>, vector<4x8xf32>
  %3 = vector.transfer_read %A[%i, %j], %p {in_bounds = [true, false], permutation_map = #broadcast} : memref<16x16xf32>, vector<2x4xf32>
  %4 = vector.transfer_read %A[%i, %j], %p, %m : memref<16x16xf32>, vector<4xf32>
  %5 = vector.transfer_read %A[%i, %j], %p, %m2 {permutation_map = #transpose} : memref<16x16xf32>, vector<4x8xf32>
  %6 = vector.transfer_read %B[%i, %c0], %q {in_bounds = [false, true]} : memref<?x16xi32>, vector<2x16xi32>
  %7 = vector.transfer_read %S[], %d {permutation_map = affine_map<() -> (0)>} : memref<f64>, vector<4xf64>
  vector.transfer_write %0, %A[%j, %i] {in_bounds = [true]} : vector<4xf32>, memref<16x16xf32>
  vector.transfer_write %1, %A[%i, %j], %m {permutation_map = #column} : vector<4xf32>, memref<16x16xf32>
  vector.transfer_write %2, %A[%j, %i] {permutation_map = #transpose} : vector<4x8xf32>, memref<16x16xf32>
  vector.transfer_write %6, %B[%j, %c0] : vector<2x16xi32>, memref<?x16xi32>
  return %pv : vector<4xf32>
}
