// ERROR: 3:30: missing right operand of binary operator
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = affine.load %m[%n * - + %n, %n] : memref<8x8xf32>
  return
}
