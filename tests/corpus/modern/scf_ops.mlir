// scf: for (with iter_args and a non-index induction variable), if, while, yield, condition.
func.func @scf(%lb: index, %ub: index, %step: index, %x: f32, %c: i1, %A: memref<?xf32>) -> f32 {
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> (f32) {
    %v = memref.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  %l32 = arith.constant 0 : i32
  %u32 = arith.constant 10 : i32
  %s32 = arith.constant 1 : i32
  scf.for %j = %l32 to %u32 step %s32 : i32 {
    %jj = arith.index_cast %j : i32 to index
    memref.store %x, %A[%jj] : memref<?xf32>
  }
  %r = scf.if %c -> (f32) {
    scf.yield %sum : f32
  } else {
    scf.yield %x : f32
  }
  scf.if %c {
    memref.store %r, %A[%lb] : memref<?xf32>
  }
  %w = scf.while (%arg = %lb) : (index) -> index {
    %cond = arith.cmpi slt, %arg, %ub : index
    scf.condition(%cond) %arg : index
  } do {
  ^bb0(%arg: index):
    %next = arith.addi %arg, %step : index
    scf.yield %next : index
  }
  return %r : f32
}
