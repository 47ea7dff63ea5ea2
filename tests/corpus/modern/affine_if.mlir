// affine.if with else, results, inline sets, equality constraints and symbols.
#set = affine_set<(d0, d1)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0, d1 mod 2 == 0)>
func.func @conds(%A: memref<100x100xf32>, %N: index, %x: f32) -> f32 {
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to 100 {
      affine.if #set(%i, %j)[%N] {
        affine.store %x, %A[%i, %j] : memref<100x100xf32>
      }
      affine.if affine_set<(d0) : (d0 - 50 == 0)>(%i) {
        affine.store %x, %A[%j, %i] : memref<100x100xf32>
      } else {
        affine.store %x, %A[%i, %i] : memref<100x100xf32>
      }
    }
  }
  %c = arith.constant 5 : index
  %r = affine.if affine_set<()[s0] : (s0 >= 0, -s0 + 99 >= 0)>()[%c] -> f32 {
    %v = affine.load %A[%c, %c] : memref<100x100xf32>
    affine.yield %v : f32
  } else {
    affine.yield %x : f32
  }
  affine.if affine_set<(d0) : (1 == 0)>(%c) {
  }
  return %r : f32
}
