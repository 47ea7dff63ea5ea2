// ERROR: 3:34: expected '(' at start of SSA symbol
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = affine.load %m[%n * symbol%n) + 1, %n] : memref<8x8xf32>
  return
}
