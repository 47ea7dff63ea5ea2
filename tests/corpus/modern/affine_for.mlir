// affine.for: constant, symbol and map bounds, max/min, steps, iter_args, nesting.
#lb = affine_map<(d0)[s0] -> (d0 * 2, s0 - 4)>
#ub = affine_map<(d0)[s0] -> (d0 + 32, s0)>
func.func @loops(%A: memref<?xf32>, %N: index, %x: f32) -> f32 {
  affine.for %i = 0 to 10 {
  }
  affine.for %i = -5 to %N step 3 {
    affine.for %j = max #lb(%i)[%N] to min #ub(%i)[%N] {
      affine.store %x, %A[%j] : memref<?xf32>
    }
  }
  affine.for %i = affine_map<(d0) -> (d0 + 1)>(%N) to affine_map<()[s0] -> (s0 * 2)>()[%N] {
  }
  %sum = affine.for %i = 0 to %N iter_args(%acc = %x) -> (f32) {
    %v = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  %r:2 = affine.for %i = 0 to 8 step 2 iter_args(%a = %x, %b = %sum) -> (f32, f32) {
    %t = arith.mulf %a, %b : f32
    affine.yield %t, %a : f32, f32
  }
  return %r#1 : f32
}
