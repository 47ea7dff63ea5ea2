// ERROR: 3:23: custom op 'arith.constant' invalid kind of attribute specified
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = arith.constant i32
  return
}
