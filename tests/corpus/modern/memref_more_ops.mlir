// memref ops beyond alloc/load/store: globals, views, reshapes, atomics, metadata.
memref.global @g0 : memref<2xf32>
memref.global constant @g1 : memref<2xf32> = dense<[0.0, 1.0]>
memref.global "private" @g2 : memref<2xf32> = uninitialized
memref.global "private" constant @g3 : memref<4xi32> = dense<1> {alignment = 64 : i64}
func.func @f(%in: memref<?xf32>, %u: memref<*xf32>, %s: memref<2xi32>, %m: memref<4x4xf32>, %v: f32, %i: index, %j: index) -> index {
  %c0 = arith.constant 0 : index
  %0 = memref.get_global @g0 : memref<2xf32>
  %1 = memref.reinterpret_cast %in to offset: [%c0], sizes: [10, %i], strides: [%i, 1] : memref<?xf32> to memref<10x?xf32, strided<[?, 1], offset: ?>>
  %2 = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %3 = memref.expand_shape %2 [[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
  %4 = memref.rank %u : memref<*xf32>
  %5 = memref.reshape %in(%s) : (memref<?xf32>, memref<2xi32>) -> memref<?x?xf32>
  %6 = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x4xf32> to memref<4x4xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>>
  %7 = memref.atomic_rmw addf %v, %m[%i, %j] : (f32, memref<4x4xf32>) -> f32
  %8 = memref.generic_atomic_rmw %m[%i, %j] : memref<4x4xf32> {
  ^bb0(%old: f32):
    %n = arith.addf %old, %v : f32
    memref.atomic_yield %n : f32
  }
  memref.alloca_scope {
    %a = memref.alloca() : memref<4xf32>
  }
  %9 = memref.alloca_scope -> (f32) {
    memref.alloca_scope.return %v : f32
  }
  %10 = memref.assume_alignment %m, 16 : memref<4x4xf32>
  memref.prefetch %m[%i, %j], read, locality<3>, data : memref<4x4xf32>
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %m : memref<4x4xf32> -> memref<f32>, index, index, index, index, index
  %11 = memref.extract_aligned_pointer_as_index %m : memref<4x4xf32> -> index
  %12 = memref.realloc %in(%i) : memref<?xf32> to memref<?xf32>
  %13 = memref.memory_space_cast %m : memref<4x4xf32> to memref<4x4xf32, 1>
  %14 = memref.alloc() : memref<2048xi8>
  %15 = memref.view %14[%c0][%i] : memref<2048xi8> to memref<?x4xf32>
  %16 = memref.cast %m : memref<4x4xf32> to memref<?x?xf32>
  %17 = memref.subview %m[1, %i][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
  memref.copy %0, %0 : memref<2xf32> to memref<2xf32>
  %18 = memref.load %m[%i, %j] {nontemporal = true} : memref<4x4xf32>
  return %4 : index
}
