// ERROR: 3:50: expected ',' or ')'
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %r:2 = affine.for %i = 0 to 4 iter_args(%p = %x %q = %x) -> (f32, f32) {
    affine.yield %p, %q : f32, f32
  }
  return
}
