// ERROR: 3:24: expected SSA operand
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  scf.parallel (%i) = (,) to (%n) step (%n) {
  }
  return
}
