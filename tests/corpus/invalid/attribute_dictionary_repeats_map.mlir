// ERROR: 3:8: custom op 'affine.load' attribute 'map' occurs more than once in the attribute list
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = affine.load %m[%n, %n] {map = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x8xf32>
  return
}
