// mvt (PolyBench): x1 += A * y1; x2 += A^T * y2.
// scale: 40=N
func.func @mvt(%x1: memref<40xf32>, %x2: memref<40xf32>, %y1: memref<40xf32>, %y2: memref<40xf32>, %A: memref<40x40xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 40 {
      %x = affine.load %x1[%i] : memref<40xf32>
      %a = affine.load %A[%i, %j] : memref<40x40xf32>
      %y = affine.load %y1[%j] : memref<40xf32>
      %p = arith.mulf %a, %y : f32
      %s = arith.addf %x, %p : f32
      affine.store %s, %x1[%i] : memref<40xf32>
    }
  }
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 40 {
      %x = affine.load %x2[%i] : memref<40xf32>
      %a = affine.load %A[%j, %i] : memref<40x40xf32>
      %y = affine.load %y2[%j] : memref<40xf32>
      %p = arith.mulf %a, %y : f32
      %s = arith.addf %x, %p : f32
      affine.store %s, %x2[%i] : memref<40xf32>
    }
  }
  return
}
