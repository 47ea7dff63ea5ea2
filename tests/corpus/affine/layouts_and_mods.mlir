// Accesses through tiled and transposed layouts, and mod/floordiv subscripts.
#tiled = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @layouts(%A: memref<64x64xf32, #tiled>, %B: memref<64x64xf32, #transposed>, %C: memref<32xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %a = affine.load %A[%i, %j] : memref<64x64xf32, #tiled>
      affine.store %a, %B[%j, %i] : memref<64x64xf32, #transposed>
      %c = affine.load %C[(%i * 63 + %j) mod 32] : memref<32xf32>
      %d = arith.addf %a, %c : f32
      affine.store %d, %C[%j floordiv 2] : memref<32xf32>
    }
  }
  return
}
