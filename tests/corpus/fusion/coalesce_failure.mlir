// A random program (a local buffer, mod and floordiv subscripts) on whose dependences ISL's
// coalescing fails its own consistency check: the relations are kept as they are
// (poly.context.coalesced) and fusion goes on.
func.func @coalesce_failure(%A1: memref<8xf32>) {
  %A0 = memref.alloc() : memref<6x5xf32>
  affine.for %i1 = 1 to 2 {
    affine.for %i2 = 0 to min affine_map<(d0) -> (1, d0 + 1)>(%i1) {
      %c3 = arith.constant -0.25 : f32
      %r6 = affine.for %i4 = max affine_map<(d0) -> (1, d0 - 2)>(%i1) to min affine_map<(d0) -> (2, d0 + 1)>(%i1) step 2 iter_args(%acc5 = %c3) -> (f32) {
        %v7 = affine.load %A0[(%i1 * -2 + %i2 + %i4 * 2 + 5) mod 6, ((%i1 * -1 + %i2 + %i4 * 2 + 3) floordiv 3) mod 5] : memref<6x5xf32>
        %e8 = arith.addf %acc5, %v7 : f32
        affine.yield %e8 : f32
      }
      affine.store %r6, %A1[(%i1 * 2 + %i2 * 2 + 4) mod 8] : memref<8xf32>
      affine.for %i9 = 0 to 7 {
        %v10 = affine.load %A0[((%i1 * 2 + %i9 * 3 + 9) floordiv 2) mod 6, ((%i1 * -2 + %i2 * -2 + %i9 * 3 + 3) floordiv 2) mod 5] : memref<6x5xf32>
        affine.store %v10, %A1[((%i1 * -2 + %i2 * -1 + 4) floordiv 3) mod 8] : memref<8xf32>
      }
    }
    affine.for %i11 = 1 to 7 {
      %c12 = arith.constant 1.0 : f32
      %r15 = affine.for %i13 = 0 to 6 iter_args(%acc14 = %c12) -> (f32) {
        %v16 = affine.load %A0[(%i1 * 3 + %i11 * -1 + %i13 * 2 + 6) mod 6, (%i1 * -1 + %i11 * 2 + %i13 * -1 + 9) mod 5] : memref<6x5xf32>
        %v17 = affine.load %A1[(1) mod 8] : memref<8xf32>
        %e18 = arith.addf %v16, %v17 : f32
        %e19 = arith.addf %acc14, %e18 : f32
        affine.yield %e19 : f32
      }
      affine.store %r15, %A0[(%i1 * 2 + %i11 * 3 + 9) mod 6, ((%i1 * -2 + %i11 * 2 + 3) floordiv 3) mod 5] : memref<6x5xf32>
      affine.for %i20 = 0 to min affine_map<(d0) -> (7, d0 + 1)>(%i11) {
        %v21 = affine.load %A0[((%i1 + %i11 * 3 + %i20 * -1 + 2) floordiv 2) mod 6, ((%i1 * -2 + %i11 * 2 + %i20 * -1 + 8) floordiv 3) mod 5] : memref<6x5xf32>
        %v22 = affine.load %A0[(%i1 * 2 + %i11 + %i20 * -1 + 2) mod 6, (%i1 * 3 + %i20 * -1 + 8) mod 5] : memref<6x5xf32>
        %c23 = arith.constant 2.0 : f32
        %e24 = arith.mulf %v21, %c23 : f32
        affine.store %e24, %A1[((%i1 * 2 + %i11 + %i20 * -2 + 6) floordiv 2) mod 8] : memref<8xf32>
        %v25 = affine.load %A1[(%i1 * 2 + %i11 * -2 + %i20 * -2 + 8) mod 8] : memref<8xf32>
        %v26 = affine.load %A0[((%i1 * 3 + %i11 * 3 + %i20 * 3 + 2) floordiv 3) mod 6, (%i1 * -2 + %i11 * -2 + %i20 * 2 + 7) mod 5] : memref<6x5xf32>
        %e27 = arith.subf %v25, %v26 : f32
        %v28 = affine.load %A0[(%i1 + %i11 * -1 + %i20 * 2 + 6) mod 6, (%i1 + %i11 * -2 + %i20 * -1 + 4) mod 5] : memref<6x5xf32>
        %e29 = arith.addf %e27, %v28 : f32
        affine.store %e29, %A0[(%i1 * -2 + %i11 * -1 + %i20 * 3 + 2) mod 6, ((%i1 * -2 + %i11 * -2 + %i20 + 1) floordiv 3) mod 5] : memref<6x5xf32>
      }
    }
  }
  return
}
