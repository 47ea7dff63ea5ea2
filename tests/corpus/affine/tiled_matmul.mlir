// A 32x32x32-tiled matmul with partial tiles (min bounds), as -affine-loop-tile prints it.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + 32, s0)>
func.func @tiled(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %N: index) {
  affine.for %ii = 0 to %N step 32 {
    affine.for %jj = 0 to %N step 32 {
      affine.for %kk = 0 to %N step 32 {
        affine.for %i = #map(%ii) to min #map1(%ii)[%N] {
          affine.for %j = #map(%jj) to min #map1(%jj)[%N] {
            affine.for %k = #map(%kk) to min #map1(%kk)[%N] {
              %a = affine.load %A[%i, %k] : memref<?x?xf32>
              %b = affine.load %B[%k, %j] : memref<?x?xf32>
              %c = affine.load %C[%i, %j] : memref<?x?xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %c, %p : f32
              affine.store %s, %C[%i, %j] : memref<?x?xf32>
            }
          }
        }
      }
    }
  }
  return
}
