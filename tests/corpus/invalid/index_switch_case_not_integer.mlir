// ERROR: 3:40: custom op 'scf.index_switch' expected integer value
func.func @f(%a: i32, %x: f32, %c: i1, %n: index, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<8x8xf32>, %s: memref<16xf32>) {
  %0 = scf.index_switch %n -> i32 case x {
    scf.yield %a : i32
  } default {
    scf.yield %a : i32
  }
  return
}
