// Identical read-only sibling loops: two sums of the same vector.
// scale: 100=N
func.func @sums(%A: memref<100xf32>, %s: memref<2xf32>) {
  affine.for %i = 0 to 100 {
    %a = affine.load %A[%i] : memref<100xf32>
    %t = affine.load %s[0] : memref<2xf32>
    %u = arith.addf %t, %a : f32
    affine.store %u, %s[0] : memref<2xf32>
  }
  affine.for %i = 0 to 100 {
    %a = affine.load %A[%i] : memref<100xf32>
    %m = arith.mulf %a, %a : f32
    %t = affine.load %s[1] : memref<2xf32>
    %u = arith.addf %t, %m : f32
    affine.store %u, %s[1] : memref<2xf32>
  }
  return
}
