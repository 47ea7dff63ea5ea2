// ERROR: 3:8: 'arith.constant' op value must be an integer, float, or elements attribute
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = arith.constant "s"
  return
}
