// Memref types with index maps, layout maps and named memory spaces
// (seeds/002 "Memref Type", "Index Map", "Layout Map", "Affine Map Composition").
// Fixed: `#layout_map_col_major = (i, j), [M, N] -> ...` has a stray comma before the
// symbol list; `<16x?xf32, #imapA>` lacks the `memref` keyword.

// Identity index/layout map
#imapA = (d0, d1) -> (d0, d1) size (16, 32)

// Column major layout.
#imapB = (d0, d1, d2) [s0] -> (d2, d1, d0) size (s0, 4, 16)

// Affine map with symbol 's0' used as offset for first dimension.
#imapC = (d0, d1) [s0] -> (d0 + s0, d1)

// Index map from [MS, NS] slice index space to larger [M, N]
// matrix index space at slice offset symbols OI, OJ:
// Maps from [MS, NS] -> [M, N]
#imap_slice = (i, j) [M, N, OI, OJ] -> (i + OI , j + OJ) size (M, N)

// Index map from 4-dimensional tiled index space to
// 2-dimensional index space.
// Maps from [M/128, N/128, 128, 128] -> [M, N]
#imap_tiled = (d0, d1, d2, d3) [M, N] -> (128 * d0 + d2, 128 * d1 + d3)
                                         size (M, N)

// MxN matrix stored in row major layout in memory:
#layout_map_row_major = (i, j) [M, N] -> (i, j) size (M, N)

// MxN matrix stored in column major layout in memory:
#layout_map_col_major = (i, j) [M, N] -> (j, i) size (M, N)

func @memrefs(%n: index, %o: index, %M: index, %N: index, %oi: index, %oj: index) {
  %A = alloc() : memref<16x32xf32, #imapA, hbm>
  %i = constant 3 : index
  %j = constant 5 : index
  // Loads data from memref '%A' using a 2D index: (%i, %j)
  %v = load %A[%i, %j] : memref<16x32xf32, #imapA, hbm>

  %B = alloc(%n)[%n] : memref<16x4x?xf32, #imapB, hbm>

  // '%n' is bound to the dynamic second dimension of the memref type.
  // '%o' is bound to the symbol 's0' in the affine map of the memref type.
  %C = alloc(%n)[%o] : memref<16x?xf32, #imapC>

  // A slice index map followed by a column-major layout map: a composition.
  %D = alloc()[%M, %N, %oi, %oj, %M, %N] : memref<8x8xf32, #imap_slice, #layout_map_col_major>

  // A tiled index space composed with a row-major layout.
  %E = alloc()[%M, %N, %M, %N] : memref<2x2x128x128xf32, #imap_tiled, #layout_map_row_major, vmem>
  %z = constant 0.0 : f32
  store %z, %E[%i, %j, %i, %j] : memref<2x2x128x128xf32, #imap_tiled, #layout_map_row_major, vmem>
  return
}
