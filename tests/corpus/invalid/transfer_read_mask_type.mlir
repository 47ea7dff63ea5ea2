// ERROR: 3:45: use of value '%m8' expects different type than prior uses: 'vector<4xi1>' vs 'vector<8xi1>'
func.func @f(%A: memref<8x8xf32>, %i: index, %p: f32, %v: vector<4xf32>, %m8: vector<8xi1>) {
  %0 = vector.transfer_read %A[%i, %i], %p, %m8 : memref<8x8xf32>, vector<4xf32>
  return
}
