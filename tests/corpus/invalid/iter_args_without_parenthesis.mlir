// ERROR: 3:40: custom op 'affine.for' expected '('
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %r = affine.for %i = 0 to 4 iter_args{%p = %x) -> (f32) {
    affine.yield %p : f32
  }
  return
}
