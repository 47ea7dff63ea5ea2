// Unroll-and-jam inputs (mlir-opt's pass only handles the first op of each function):
// inner loops with and without iter_args, a reduction carried by the jammed loop, an
// affine.if, a symbolic trip count (cleanup loop) and a trip count below the factor.
func.func @inner_iter_args(%A: memref<100x100xf32>, %B: memref<100xf32>) {
  affine.for %i = 0 to 10 {
    %a = affine.load %B[%i] : memref<100xf32>
    %r = affine.for %j = 0 to 20 iter_args(%acc = %a) -> f32 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      %s = arith.addf %acc, %v : f32
      affine.yield %s : f32
    }
    affine.store %r, %B[%i] : memref<100xf32>
  }
  return
}

func.func @reduction(%A: memref<100x100xf32>, %B: memref<100xf32>, %N: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %total = affine.for %i = 0 to %N iter_args(%t = %zero) -> f32 {
    %a = affine.load %B[%i] : memref<100xf32>
    %r = affine.for %j = 0 to 20 iter_args(%acc = %a) -> f32 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      %s = arith.addf %acc, %v : f32
      affine.yield %s : f32
    }
    affine.store %r, %B[%i] : memref<100xf32>
    affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i) {
      affine.store %a, %B[%i + 1] : memref<100xf32>
    }
    affine.for %k = 0 to 7 {
      affine.store %a, %A[%i, %k] : memref<100x100xf32>
    }
    %n = arith.mulf %t, %r : f32
    affine.yield %n : f32
  }
  return %total : f32
}

func.func @stepped(%A: memref<100x100xf32>) {
  affine.for %i = 1 to 29 step 3 {
    affine.for %j = 0 to 4 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %v, %A[%j, %i] : memref<100x100xf32>
    }
  }
  return
}

func.func @short(%A: memref<100x100xf32>) {
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %v, %A[%j, %i] : memref<100x100xf32>
    }
  }
  return
}
