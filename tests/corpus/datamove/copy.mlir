// Loops for -affine-data-copy-generate in the shapes of mlir-opt's dma-generate tests, made
// runnable (results stored, computations are arith ops): a 1-d nest over two memrefs (one
// already in fast memory), a tiled nest, a mod-2 access, a constant row, symbolic offsets,
// symbolic loop bounds, a dynamic-size memref, and the union of two loads and two stores.
func.func @loop_nest_1d(%A: memref<256xf32>, %B: memref<512xf32>, %F: memref<256xf32, 2>, %O: memref<256xf32>) {
  affine.for %i = 0 to 256 {
    %a = affine.load %A[%i] : memref<256xf32>
    %b = affine.load %B[%i + 256] : memref<512xf32>
    %f = affine.load %F[%i] : memref<256xf32, 2>
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %f : f32
    affine.store %t, %O[%i] : memref<256xf32>
  }
  return
}

func.func @loop_nest_tiled(%M: memref<64x128xf32>, %O: memref<64x128xf32>) {
  affine.for %i0 = 0 to 64 step 32 {
    affine.for %i1 = 0 to 128 step 32 {
      affine.for %i2 = affine_map<(d0) -> (d0)>(%i0) to affine_map<(d0) -> (d0 + 32)>(%i0) {
        affine.for %i3 = affine_map<(d0) -> (d0)>(%i1) to affine_map<(d0) -> (d0 + 32)>(%i1) {
          %v = affine.load %M[%i2, %i3] : memref<64x128xf32>
          %w = arith.addf %v, %v : f32
          affine.store %w, %O[%i2, %i3] : memref<64x128xf32>
        }
      }
    }
  }
  return
}

func.func @loop_nest_modulo(%A: memref<256x8xf32>, %O: memref<32x8xf32>) {
  affine.for %i = 0 to 32 step 4 {
    affine.for %j = 0 to 8 {
      %idx = affine.apply affine_map<(d0) -> (d0 mod 2)>(%j)
      %v = affine.load %A[%i, %idx] : memref<256x8xf32>
      affine.store %v, %O[%i, %j] : memref<32x8xf32>
    }
  }
  return
}

func.func @constant_dim_access(%A: memref<100x100xf32>, %O: memref<100xf32>) {
  %one = arith.constant 1 : index
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to 100 {
      %v = affine.load %A[%one, %j] : memref<100x100xf32>
      %o = affine.load %O[%j] : memref<100xf32>
      %s = arith.addf %v, %o : f32
      affine.store %s, %O[%j] : memref<100xf32>
    }
  }
  return
}

func.func @symbolic_accesses(%A: memref<100x100xf32>, %O: memref<100x80xf32>) {
  %M = arith.constant 7 : index
  %N = arith.constant 9 : index
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to 80 {
      %idy = affine.apply affine_map<(d0) [s0, s1] -> (d0 + s0 + s1)>(%j)[%M, %N]
      %v = affine.load %A[%i, %idy] : memref<100x100xf32>
      affine.store %v, %O[%i, %j] : memref<100x80xf32>
    }
  }
  return
}

func.func @symbolic_loop_bounds(%A: memref<100x100xf32>, %O: memref<100x100xf32>, %M: index, %N: index) {
  affine.for %i = 0 to 100 {
    affine.for %j = max affine_map<()[s0] -> (s0, 0)>()[%M] to min affine_map<()[s0] -> (s0, 91)>()[%N] {
      %idy = affine.apply affine_map<(d1) -> (d1 + 9)>(%j)
      %v = affine.load %A[%i, %idy] : memref<100x100xf32>
      affine.store %v, %O[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

func.func @unknown_size(%A: memref<?x?xf32>, %O: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %N = memref.dim %A, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %M {
    affine.for %j = 0 to %N {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %O[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @multi_load_store_union(%A: memref<512x512xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %u = affine.load %A[%i + 2, %j + 128] : memref<512x512xf32>
      %v = affine.load %A[%i + 64, %j + 2] : memref<512x512xf32>
      affine.store %u, %A[%i + 2, %j + 192] : memref<512x512xf32>
      affine.store %v, %A[%i + 128, %j + 2] : memref<512x512xf32>
    }
  }
  return
}
