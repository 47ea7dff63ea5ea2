// ERROR: 3:8: 'vector.transfer_read' op attribute 'in_bounds' failed to satisfy constraint: 1-bit boolean array attribute
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %A[%i, %i], %p {in_bounds = [1]} : memref<8x8xf32>, vector<4xf32>
  return
}
