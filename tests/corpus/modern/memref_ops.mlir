// memref: alloc/alloca with dynamic sizes and layout symbols, dealloc, dim, load, store,
// cast, subview, copy; layouts given as maps, strided layouts and memory spaces.
func.func @memrefs(%n: index, %o: index, %i: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?x8xf32>
  %b = memref.alloca() : memref<4xf32, 1>
  %c = memref.alloc()[%o] : memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
  %d = memref.alloc() {alignment = 64 : i64} : memref<16xi8>
  %t = memref.alloc() : memref<64x64xf32, affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)>>
  %dim = memref.dim %a, %c0 : memref<?x8xf32>
  %x = memref.load %a[%i, %c0] : memref<?x8xf32>
  memref.store %v, %a[%i, %c0] : memref<?x8xf32>
  %cast = memref.cast %b : memref<4xf32, 1> to memref<?xf32, 1>
  %sv = memref.subview %a[0, 2][4, 4][1, 1] : memref<?x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
  %sv2 = memref.subview %a[%i, 0][%n, 8][1, 1] : memref<?x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
  memref.copy %b, %b : memref<4xf32, 1> to memref<4xf32, 1>
  memref.dealloc %a : memref<?x8xf32>
  memref.dealloc %c : memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
  return
}
