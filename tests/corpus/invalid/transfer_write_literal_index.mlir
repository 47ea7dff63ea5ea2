// ERROR: 3:32: expected SSA operand
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  vector.transfer_write %v, %A[0, 0] : vector<4xf32>, memref<8x8xf32>
  return
}
