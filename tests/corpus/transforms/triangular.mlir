// Non-rectangular bands: bounds that depend on outer loops of the band with coefficients of
// either sign, floordiv, max/min bounds and steps.  mlir-opt's tiling refuses them.
func.func @lower_triangle(%A: memref<40x40xf32>, %B: memref<40x40xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %a = affine.load %A[%i, %j] : memref<40x40xf32>
      %b = affine.load %B[%j, %i] : memref<40x40xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %B[%j, %i] : memref<40x40xf32>
    }
  }
  return
}

func.func @anti_triangle(%A: memref<40x40xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = affine_map<(d0) -> (d0 floordiv 2)>(%i) to affine_map<(d0) -> (-d0 + 40)>(%i) {
      %a = affine.load %A[%i, %j] : memref<40x40xf32>
      %s = arith.addf %a, %a : f32
      affine.store %s, %A[%i, %j] : memref<40x40xf32>
    }
  }
  return
}

func.func @banded(%A: memref<40x40xf32>, %B: memref<40x40xf32>) {
  affine.for %i = 1 to 37 step 2 {
    affine.for %j = affine_map<(d0) -> (d0 floordiv 2 + 1)>(%i) to min affine_map<(d0) -> (d0 + 5, 40)>(%i) step 2 {
      affine.for %k = max affine_map<(d0, d1) -> (d1 - d0, 0)>(%i, %j) to affine_map<(d0, d1) -> (40 - d0)>(%i, %j) {
        %a = affine.load %A[%i, %k] : memref<40x40xf32>
        %b = affine.load %B[%j, %k] : memref<40x40xf32>
        %s = arith.addf %a, %b : f32
        affine.store %s, %B[%j, %k] : memref<40x40xf32>
      }
    }
  }
  return
}
