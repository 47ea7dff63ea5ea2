// Index ops: affine.delinearize_index splits a flat loop into (row, column) subscripts and
// affine.linearize_index joins them back the other way round (a transposed gather).
func.func @index_ops(%A: memref<8x16xf32>, %B: memref<128xf32>, %C: memref<8x16xf32>, %D: memref<128xindex>) {
  affine.for %i = 0 to 128 {
    %q:2 = affine.delinearize_index %i into (8, 16) : index, index
    %a = memref.load %A[%q#0, %q#1] : memref<8x16xf32>
    %l = affine.linearize_index disjoint [%q#1, %q#0] by (16, 8) : index
    %b = memref.load %B[%l] : memref<128xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %C[%q#0, %q#1] : memref<8x16xf32>
    %r:3 = affine.delinearize_index %i into (4, 8) : index, index, index
    %m = affine.linearize_index [%r#0, %r#2, %r#1] by (4, 8, 4) : index
    affine.store %m, %D[%i] : memref<128xindex>
  }
  return
}
