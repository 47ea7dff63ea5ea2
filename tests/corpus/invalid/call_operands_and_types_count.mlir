// ERROR: 3:16: custom op 'func.call' number of operands and types do not match: got 0 operands and 1 types
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  func.call @f() : (i32) -> ()
  return
}
