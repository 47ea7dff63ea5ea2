// Seed memref types whose layout (or layout composition) is the identity on its dimensions
// but has symbols that only its `size` clause uses: modern MLIR drops such a layout, so the
// symbols an `alloc` binds to it are dropped too; named memory spaces; a composition with
// `size` clauses that is not the identity keeps its symbols.

#row_major = (i, j) [M, N] -> (i, j) size (M, N)
#sized = (i) [S] -> (i) size (S)
#square = (i, j) [S] -> (i, j) size (S, S)
#slice = (i, j) [OI, OJ] -> (i + OI, j + OJ) size (8, 8)
#unslice = (i, j) [OI, OJ] -> (i - OI, j - OJ) size (4, 4)
#tiles = (i, j) [M] -> (i floordiv 2, j, i mod 2) size (M, 4, 2)

func @allocs(%M: index, %N: index, %n: index, %oi: index, %oj: index) {
  %A = alloc()[%M, %N] : memref<4x4xf32, #row_major>
  %B = alloc(%n)[%M, %N] : memref<?x4xf32, #row_major, hbm>
  %C = alloc()[%oi, %oj, %oi, %oj] : memref<4x4xf32, #slice, #unslice, vmem>
  %D = alloc()[%M] : memref<4x4xf32, #tiles, hbm>
  %E = alloc()[%n] : memref<16xf32, #sized>
  %F = alloc()[%n, %M, %N] : memref<4x4xf32, #square, #row_major, hbm>
  %i = constant 1 : index
  %v = load %A[%i, %i] : memref<4x4xf32, #row_major>
  store %v, %B[%i, %i] : memref<?x4xf32, #row_major, hbm>
  store %v, %C[%i, %i] : memref<4x4xf32, #slice, #unslice, vmem>
  store %v, %D[%i, %i] : memref<4x4xf32, #tiles, hbm>
  store %v, %E[%i] : memref<16xf32, #sized>
  store %v, %F[%i, %i] : memref<4x4xf32, #square, #row_major, hbm>
  return
}

// Runnable: the layouts of the arguments are identities (dropped) or a tiling.
func @copy_scale(%A: memref<4x4xf32, #row_major>, %B: memref<4x4xf32, #tiles, hbm>, %x: memref<16xf32, #sized>) {
  for %i = 0 to 4 {
    for %j = 0 to 4 {
      %a = load %A[%i, %j] : memref<4x4xf32, #row_major>
      %s = load %x[%j] : memref<16xf32, #sized>
      %p = mulf %a, %s : f32
      store %p, %B[%i, %j] : memref<4x4xf32, #tiles, hbm>
    }
  }
  return
}
