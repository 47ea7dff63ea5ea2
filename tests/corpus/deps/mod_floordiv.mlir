// Parity and block subscripts: A[i mod 2] (even distances), B[i floordiv 4] (1..3),
// C[2i] against C[2j+1] (never the same element).
func.func @modfloor(%A: memref<2xf32>, %B: memref<5xf32>, %C: memref<40xf32>, %c: f32) {
  affine.for %i = 0 to 20 {
    affine.store %c, %A[%i mod 2] : memref<2xf32>
    affine.store %c, %B[%i floordiv 4] : memref<5xf32>
    affine.store %c, %C[%i * 2] : memref<40xf32>
    %v = affine.load %C[%i * 2 + 1] : memref<40xf32>
  }
  return
}
