// B = A + A^T where A is a view with padded rows (strided layout, leading dimension 20,
// offset 3).
// scale: 16=N 20=LD
func.func @strided_layout(%A: memref<16x16xf32, strided<[20, 1], offset: 3>>, %B: memref<16x16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf32, strided<[20, 1], offset: 3>>
      %t = affine.load %A[%j, %i] : memref<16x16xf32, strided<[20, 1], offset: 3>>
      %s = arith.addf %a, %t : f32
      affine.store %s, %B[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
