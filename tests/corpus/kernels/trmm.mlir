// trmm (PolyBench): B = alpha * A^T * B with A unit lower triangular (k runs from i + 1).
// scale: 20=M 24=N
func.func @trmm(%A: memref<20x20xf32>, %B: memref<20x24xf32>) {
  %alpha = arith.constant 1.5 : f32
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 24 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 20 {
        %a = affine.load %A[%k, %i] : memref<20x20xf32>
        %bk = affine.load %B[%k, %j] : memref<20x24xf32>
        %p = arith.mulf %a, %bk : f32
        %b = affine.load %B[%i, %j] : memref<20x24xf32>
        %s = arith.addf %b, %p : f32
        affine.store %s, %B[%i, %j] : memref<20x24xf32>
      }
      %b = affine.load %B[%i, %j] : memref<20x24xf32>
      %r = arith.mulf %alpha, %b : f32
      affine.store %r, %B[%i, %j] : memref<20x24xf32>
    }
  }
  return
}
