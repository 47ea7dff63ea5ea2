// ERROR: 5:59: expected SSA operand
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %t = memref.alloc() : memref<1xi32>
  %b = memref.alloc() : memref<8x8xf32, 1>
  memref.dma_start %m[%n, %n], %b[%n, %n], %n, %t[%n], %n, affine_map : memref<8x8xf32>, memref<8x8xf32, 1>, memref<1xi32>
  return
}
