// ERROR: 3:8: 'vector.transfer_read' op requires a permutation_map with input dims of the same rank as the source type
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %A[%i, %i], %p {permutation_map = affine_map<(d0) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
  return
}
