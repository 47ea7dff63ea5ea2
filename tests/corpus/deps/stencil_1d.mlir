// In-place 1-D stencil: A[i] = A[i-1] + A[i+1] (distance-1 RAW and WAR).
func.func @stencil(%A: memref<12xf32>) {
  affine.for %i = 1 to 11 {
    %l = affine.load %A[%i - 1] : memref<12xf32>
    %r = affine.load %A[%i + 1] : memref<12xf32>
    %s = arith.addf %l, %r : f32
    affine.store %s, %A[%i] : memref<12xf32>
  }
  return
}
