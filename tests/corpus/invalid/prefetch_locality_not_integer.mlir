// ERROR: 3:46: expected attribute value
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  memref.prefetch %m[%n, %n], read, locality<x>, data : memref<8x8xf32>
  return
}
