// ERROR: 3:30: expected ssa identifier
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = affine.load %m[symbol(affine.for), %n] : memref<8x8xf32>
  return
}
