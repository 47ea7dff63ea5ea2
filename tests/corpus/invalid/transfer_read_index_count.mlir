// ERROR: 3:8: 'vector.transfer_read' op requires 2 indices
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %A[%i], %p : memref<8x8xf32>, vector<4xf32>
  return
}
