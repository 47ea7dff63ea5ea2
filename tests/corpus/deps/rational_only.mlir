// 3i = 2j + 1 has rational solutions only in range: A[0], A[3] written, A[1] read.
func.func @rational(%A: memref<8xf32>, %c: f32) {
  affine.for %i = 0 to 2 {
    affine.store %c, %A[3 * %i] : memref<8xf32>
  }
  affine.for %j = 0 to 1 {
    %v = affine.load %A[2 * %j + 1] : memref<8xf32>
  }
  return
}
