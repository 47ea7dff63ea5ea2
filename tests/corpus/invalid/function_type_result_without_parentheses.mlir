// ERROR: 5:32: expected operation name in quotes
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  return
}
func.func private @g() -> (i32) -> i32
func.func @h() {
  return
}
