// ERROR: 3:33: expected ',' or ']'
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = arith.addf %x, %x {a = [1 2]} : f32
  return
}
