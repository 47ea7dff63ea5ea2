// ERROR: 3:22: custom op 'func.call' invalid kind of type specified: expected builtin.function, but found 'i32'
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  func.call @f(%a) : i32
  return
}
