// ERROR: 3:31: expected ')' in inline location
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = "test.x"() {a = loc("a" <)} : () -> f32
  return
}
