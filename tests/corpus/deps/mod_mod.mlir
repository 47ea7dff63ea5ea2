// A[(i * 3) mod 7] written, A[(i * 5) mod 7] read: collisions found by the modular structure.
func.func @modmod(%A: memref<7xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[(%i * 5) mod 7] : memref<7xf32>
    affine.store %v, %A[(%i * 3) mod 7] : memref<7xf32>
  }
  return
}
