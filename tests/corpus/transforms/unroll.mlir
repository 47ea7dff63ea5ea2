// Loops for unrolling: constant, symbolic and stepped trip counts, a trip count below the
// factor, iter_args, max/min bounds over an outer loop or of constants, an unused induction
// variable and an empty body.
func.func @constant_trip(%A: memref<100xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = 3 to 5 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = 2 to 51 step 4 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  return
}

func.func @symbolic_trip(%A: memref<100xf32>, %N: index, %M: index) {
  affine.for %i = 0 to %N {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = %M to %N step 2 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = affine_map<()[s0] -> (s0 * 2)>()[%M] to affine_map<()[s0] -> (s0 * 2 + 12)>()[%M] {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  return
}

func.func @iter_args(%A: memref<100xf32>, %N: index) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %sum = affine.for %i = 1 to 11 iter_args(%acc = %zero) -> f32 {
    %v = affine.load %A[%i] : memref<100xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  %pair:2 = affine.for %i = 0 to %N iter_args(%a = %zero, %b = %sum) -> (f32, f32) {
    %v = affine.load %A[%i] : memref<100xf32>
    %p = arith.mulf %a, %v : f32
    %q = arith.subf %b, %p : f32
    affine.yield %q, %p : f32, f32
  }
  return %pair#0, %pair#1 : f32, f32
}

func.func @min_max_bounds(%A: memref<64x64xf32>) {
  affine.for %i = 0 to 64 step 16 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to min affine_map<(d0) -> (d0 + 16, 60)>(%i) {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %A[%j, %i] : memref<64x64xf32>
    }
    affine.for %j = max affine_map<(d0) -> (d0 - 3, 0)>(%i) to affine_map<(d0) -> (d0 + 8)>(%i) {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %A[%j, %i] : memref<64x64xf32>
    }
  }
  return
}

func.func @unused_iv_and_empty(%A: memref<100xf32>, %x: f32) {
  affine.for %i = 0 to 6 {
    affine.store %x, %A[0] : memref<100xf32>
  }
  affine.for %i = 0 to 9 {
  }
  return
}

func.func @constant_min_max(%A: memref<100xf32>) {
  affine.for %i = 0 to min affine_map<() -> (10, 12)>() {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = max affine_map<() -> (2, 0)>() to 10 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = 0 to min affine_map<() -> (8, 12)>() {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  affine.for %i = 0 to min affine_map<() -> (1, 12)>() {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  return
}
