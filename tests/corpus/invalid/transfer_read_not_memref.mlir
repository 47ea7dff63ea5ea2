// ERROR: 3:40: custom op 'vector.transfer_read' requires memref or ranked tensor type
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %v[%i], %p : vector<4xf32>, vector<4xf32>
  return
}
