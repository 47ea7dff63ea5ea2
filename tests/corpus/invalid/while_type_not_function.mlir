// ERROR: 3:13: custom op 'scf.while' invalid kind of type specified: expected builtin.function, but found 'i32'
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  scf.while : i32 {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}
