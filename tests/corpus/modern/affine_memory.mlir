// affine.load/store with expressions and symbol(...) subscripts, vector load/store,
// prefetch, and 0-d memrefs.
func.func @accesses(%A: memref<64x64xf32>, %B: memref<f32>, %N: index, %v: vector<8xf32>) {
  affine.for %i = 1 to 63 {
    affine.for %j = 0 to 56 {
      %a = affine.load %A[%i - 1, %j + symbol(%N) floordiv 4] : memref<64x64xf32>
      %b = affine.load %A[%i * 2 - 1, (%j + 3) mod 8] : memref<64x64xf32>
      %c = arith.addf %a, %b : f32
      affine.store %c, %A[%i, %j] : memref<64x64xf32>
      %w = affine.vector_load %A[%i, %j] : memref<64x64xf32>, vector<8xf32>
      affine.vector_store %w, %A[%i, %j + 8] : memref<64x64xf32>, vector<8xf32>
      affine.prefetch %A[%i, %j + 16], read, locality<3>, data : memref<64x64xf32>
      affine.prefetch %A[%i + 1, %j], write, locality<0>, instr : memref<64x64xf32>
    }
  }
  %s = affine.load %B[] : memref<f32>
  affine.store %s, %B[] : memref<f32>
  affine.vector_store %v, %A[0, 0] : memref<64x64xf32>, vector<8xf32>
  return
}
