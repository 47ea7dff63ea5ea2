// ERROR: 3:13: custom op 'affine.if' invalid kind of attribute specified
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  affine.if 1(%n) {
  }
  return
}
