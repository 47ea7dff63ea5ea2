// affine.if with an else branch yielding a value (interior points average, boundary points
// copy), and a guard with an equality on a mod expression.
// scale: 40=N 38=N-2
#interior = affine_set<(d0) : (d0 - 1 >= 0, 38 - d0 >= 0)>
#every_third = affine_set<(d0) : (d0 mod 3 == 0)>
func.func @if_else(%A: memref<40xf32>, %B: memref<40xf32>) {
  %third = arith.constant 0.333333343 : f32
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 40 {
    %v = affine.if #interior(%i) -> f32 {
      %l = affine.load %A[%i - 1] : memref<40xf32>
      %c = affine.load %A[%i] : memref<40xf32>
      %r = affine.load %A[%i + 1] : memref<40xf32>
      %s1 = arith.addf %l, %c : f32
      %s2 = arith.addf %s1, %r : f32
      %avg = arith.mulf %s2, %third : f32
      affine.yield %avg : f32
    } else {
      %c = affine.load %A[%i] : memref<40xf32>
      affine.yield %c : f32
    }
    affine.store %v, %B[%i] : memref<40xf32>
  }
  affine.for %i = 0 to 40 {
    affine.if #every_third(%i) {
      %b = affine.load %B[%i] : memref<40xf32>
      %d = arith.mulf %b, %two : f32
      affine.store %d, %B[%i] : memref<40xf32>
    }
  }
  return
}
