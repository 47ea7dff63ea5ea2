// ERROR: 3:44: custom op 'vector.transfer_read' expected a custom permutation_map when rank(source) != rank(destination)
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %A[%i, %i], %p : memref<8x8xf32>, vector<2x4x4xf32>
  return
}
