// scf.parallel with and without reductions, scf.execute_region, scf.index_switch.
func.func @f(%lb: index, %ub: index, %st: index, %m: memref<?xf32>, %c: i32, %flag: i1) -> (f32, i64) {
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%j] : memref<?xf32>
  }
  %r:2 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%zero, %c) -> (f32, i32) {
    %v = memref.load %m[%i] : memref<?xf32>
    scf.reduce(%v, %c : f32, i32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  } {foo}
  %e = scf.execute_region -> i64 {
    %x = arith.constant 1 : i64
    scf.yield %x : i64
  }
  scf.execute_region {
    scf.yield
  }
  %e2 = scf.execute_region -> i64 no_inline {
    %x = arith.constant 2 : i64
    scf.yield %x : i64
  }
  %sw = scf.index_switch %lb -> i32
  case 2 {
    %x = arith.constant 10 : i32
    scf.yield %x : i32
  }
  case 5 {
    scf.yield %c : i32
  }
  default {
    scf.yield %c : i32
  }
  scf.index_switch %ub
  default {
  }
  return %r#0, %e : f32, i64
}
