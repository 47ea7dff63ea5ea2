// ERROR: 3:28: expected ')'
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = "test.x"() {t = (i32 f32) -> ()} : () -> i32
  return
}
