// ERROR: 3:36: expected '== affine-expr' or '>= affine-expr' at end of affine constraint
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  affine.if affine_set<(d0) : (d0 >( 0)>(%n) {
  }
  return
}
