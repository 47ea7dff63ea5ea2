// ERROR: 3:37: custom op 'memref.subview' expected integer value
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = memref.subview %m[0, 0] [%n, ] [1, 1] : memref<8x8xf32> to memref<?x?xf32, strided<[8, 1]>>
  return
}
