// Parallel loops: independent iterations, a max/min range with a step, and reductions in
// iter_args (float and integer).
func.func @parallel(%A: memref<100xf32>, %B: memref<100xf32>, %C: memref<100xi32>, %N: index) -> (f32, i32) {
  affine.for %i = 0 to 100 {
    %v = affine.load %A[%i] : memref<100xf32>
    %w = arith.mulf %v, %v : f32
    affine.store %w, %B[%i] : memref<100xf32>
  }
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : i32
  %sum = affine.for %i = max affine_map<()[s0] -> (s0, 2)>()[%N] to min affine_map<()[s0] -> (s0 + 10, 100)>()[%N] step 3 iter_args(%acc = %zero) -> f32 {
    %v = affine.load %A[%i] : memref<100xf32>
    %s = arith.addf %v, %acc : f32
    affine.yield %s : f32
  }
  %prod = affine.for %i = 0 to 100 iter_args(%acc = %one) -> i32 {
    %v = affine.load %C[%i] : memref<100xi32>
    %p = arith.muli %acc, %v : i32
    affine.yield %p : i32
  }
  return %sum, %prod : f32, i32
}
