// Memory operations (seeds/000 and 002 "Memory Operations").
// Fixed: #layout_map0/#layout_map1/#layout are defined; the dma_start example's types
// `memref<1 x i32>, (d0) -> (d0), 4>` have a stray `>` and its 2-d memrefs were given a
// 1-d map; `%12` (an i32 loaded value) cannot feed affine_apply, it is cast to index;
// the indirect load uses the type of %A.
#layout_map0 = (d0, d1) -> (d1, d0)
#layout_map1 = (d0, d1)[s0, s1] -> (d0 + s0, d1 + s1)
#layout = (d0, d1) -> (d0, d1)
#id2 = (d0, d1) -> (d0, d1)

func @memory(%M: index, %N: index, %x: index, %y: index, %i: index, %j: index, %k: index, %l: index,
             %src: memref<40 x 8 x vector<16xf32>, #id2, 0>, %dst: memref<2 x 4 x vector<16xf32>, #id2, 2>) {
  // Allocating memref for a fully static shape.
  %A = alloc() : memref<1024x64xf32, #layout_map0, hbm>

  // %M, %N, %x, %y are SSA values of integer type.  M and N are bound to the
  // two unknown dimensions of the type and x/y are bound to symbols in
  // #layout_map1.
  %B = alloc(%M, %N)[%x, %y] : memref<?x?xf32, #layout_map1, vmem>

  %S = alloc_static(0x1232a00) : memref<1024 x 64 x f32, #layout_map0, hbm>

  %size = constant 32 : index
  %tag = alloc() : memref<1 x i32, (d0) -> (d0), 4>
  %idx = constant 0 : index
  dma_start %src[%i, %j], %dst[%k, %l], %size, %tag[%idx] :
     memref<40 x 8 x vector<16xf32>, #id2, 0>,
     memref<2 x 4 x vector<16xf32>, #id2, 2>,
     memref<1 x i32, (d0) -> (d0), 4>
  dma_wait %tag[%idx], %size : memref<1 x i32, (d0) -> (d0), 4>

  %C = alloc(%N) : memref<8x?xi32, #layout, hbm>
  for %ii = 0 to 8 {
    for %jj = 0 to 4 {
      %1 = affine_apply (d0, d1) -> (3*d0) (%ii, %jj)
      %2 = affine_apply (d0, d1) -> (d1+1) (%ii, %jj)
      %12 = load %C[%1, %2] : memref<8x?xi32, #layout, hbm>

      // Example of an indirect load (treated as non-affine)
      %i12 = index_cast %12 : i32 to index
      %3 = affine_apply (d0) -> (2*d0 + 1)(%i12)
      %13 = load %C[%3, %2] : memref<8x?xi32, #layout, hbm>
      store %13, %C[%1, 1023] : memref<8x?xi32, #layout, hbm>
    }
  }
  dealloc %C : memref<8x?xi32, #layout, hbm>
  dealloc %A : memref<1024x64xf32, #layout_map0, hbm>
  return
}
