// ERROR: 3:30: expected '->' in function type
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  affine.for %i = 0 to min ()[%n] {
  }
  return
}
