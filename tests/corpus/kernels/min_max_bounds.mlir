// A hand-tiled banded matrix product with tiles of 7 (which does not divide N): partial
// tiles through min upper bounds, the band j >= i - 3 through a max lower bound.
// scale: 30=N
func.func @min_max_bounds(%A: memref<30x30xf32>, %B: memref<30x30xf32>, %C: memref<30x30xf32>) {
  affine.for %ii = 0 to 30 step 7 {
    affine.for %jj = 0 to 30 step 7 {
      affine.for %kk = 0 to 30 step 7 {
        affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0) -> (d0 + 7, 30)>(%ii) {
          affine.for %j = max affine_map<(d0, d1) -> (d0, d1 - 3)>(%jj, %i) to min affine_map<(d0) -> (d0 + 7, 30)>(%jj) {
            affine.for %k = affine_map<(d0) -> (d0)>(%kk) to min affine_map<(d0) -> (d0 + 7, 30)>(%kk) {
              %a = affine.load %A[%i, %k] : memref<30x30xf32>
              %b = affine.load %B[%k, %j] : memref<30x30xf32>
              %p = arith.mulf %a, %b : f32
              %c = affine.load %C[%i, %j] : memref<30x30xf32>
              %s = arith.addf %c, %p : f32
              affine.store %s, %C[%i, %j] : memref<30x30xf32>
            }
          }
        }
      }
    }
  }
  return
}
