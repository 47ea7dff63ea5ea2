// ERROR: 3:19: expected ')' in argument list
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  scf.parallel (%i %j) = (%n, %n) to (%n, %n) step (%n, %n) {
  }
  return
}
