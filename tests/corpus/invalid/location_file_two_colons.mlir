// ERROR: 3:51: expected integer line number in FileLineColRange
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = arith.addf %x, %x : f32 loc(fused["a.mlir"::1, "b.mlir":2:2])
  return
}
