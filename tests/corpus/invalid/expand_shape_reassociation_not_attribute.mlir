// ERROR: 3:30: expected attribute value
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = memref.expand_shape %s =[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
  return
}
