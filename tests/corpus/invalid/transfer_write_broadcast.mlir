// ERROR: 3:3: 'vector.transfer_write' op should not have broadcast dimensions
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  vector.transfer_write %v, %A[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>} : vector<4xf32>, memref<8x8xf32>
  return
}
