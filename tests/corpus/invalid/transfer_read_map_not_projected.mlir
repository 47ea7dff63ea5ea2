// ERROR: 3:8: 'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %A[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<8x8xf32>, vector<4xf32>
  return
}
