// ERROR: 3:50: integer literal not valid for specified type
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %r = affine.parallel (%i) = (0) to (8) reduce (1) -> (f32) {
    affine.yield %x : f32
  }
  return
}
