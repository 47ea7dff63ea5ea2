// ERROR: 5:38: expected non-function type
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  return
}
func.func private @g() -> (i32 {a.b}, =)
func.func @h() {
  return
}
