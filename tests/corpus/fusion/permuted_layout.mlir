// A producer-consumer pair through a buffer with a permuted layout: the dependences index
// its elements through the layout, so the fused buffer keeps its shape (contracting
// dimension 0 modulo 2 of the physical index overwrote A[0][i] before it was read).
// poly-opt --affine-loop-fusion: wrong result (private buffer contracted "index 0 modulo 2"
// although A[0, i] written at consumer iteration j=0 is still read at j=4).
// Derived from mlir/test/Transforms/normalize-memrefs.mlir (@permute layout) +
// loop-fusion.mlir producer/consumer pattern.
func.func @perm(%in: memref<4x6xf32>, %out: memref<4x6xf32>) {
  %A = memref.alloc() : memref<4x6xf32, affine_map<(d0, d1) -> (d1, d0)>>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      %v = affine.load %in[%i, %j] : memref<4x6xf32>
      affine.store %v, %A[%i, %j] : memref<4x6xf32, affine_map<(d0, d1) -> (d1, d0)>>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      %v = affine.load %A[%j mod 4, %i] : memref<4x6xf32, affine_map<(d0, d1) -> (d1, d0)>>
      affine.store %v, %out[%i, %j] : memref<4x6xf32>
    }
  }
  return
}
