// ERROR: 3:19: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = arith.addf %a, %a : f32
  return
}
