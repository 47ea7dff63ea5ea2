// jacobi-2d (PolyBench): T time steps of a 5-point stencil, ping-ponging between A and B.
// scale: 20=N 19=N-1 10=T
func.func @jacobi_2d(%A: memref<20x20xf32>, %B: memref<20x20xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 19 {
      affine.for %j = 1 to 19 {
        %c = affine.load %A[%i, %j] : memref<20x20xf32>
        %w = affine.load %A[%i, %j - 1] : memref<20x20xf32>
        %e = affine.load %A[%i, %j + 1] : memref<20x20xf32>
        %n = affine.load %A[%i + 1, %j] : memref<20x20xf32>
        %s = affine.load %A[%i - 1, %j] : memref<20x20xf32>
        %a1 = arith.addf %c, %w : f32
        %a2 = arith.addf %a1, %e : f32
        %a3 = arith.addf %a2, %n : f32
        %a4 = arith.addf %a3, %s : f32
        %v = arith.mulf %fifth, %a4 : f32
        affine.store %v, %B[%i, %j] : memref<20x20xf32>
      }
    }
    affine.for %i = 1 to 19 {
      affine.for %j = 1 to 19 {
        %c = affine.load %B[%i, %j] : memref<20x20xf32>
        %w = affine.load %B[%i, %j - 1] : memref<20x20xf32>
        %e = affine.load %B[%i, %j + 1] : memref<20x20xf32>
        %n = affine.load %B[%i + 1, %j] : memref<20x20xf32>
        %s = affine.load %B[%i - 1, %j] : memref<20x20xf32>
        %a1 = arith.addf %c, %w : f32
        %a2 = arith.addf %a1, %e : f32
        %a3 = arith.addf %a2, %n : f32
        %a4 = arith.addf %a3, %s : f32
        %v = arith.mulf %fifth, %a4 : f32
        affine.store %v, %A[%i, %j] : memref<20x20xf32>
      }
    }
  }
  return
}
