// ERROR: 7:33: expected '=' after SSA name
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  "test.use"(%y, %z) : (i32, i32) -> ()
  return
}
func.func @g() {
  %0 = arith.constant 1 : i32 %0
  return
}
