// Element types that tensors and memrefs may hold besides scalars.
func.func private @tensor_elements(tensor<3xvector<4xi8>>, tensor<*xcomplex<f64>>, tensor<2x!x.cell>)
func.func private @memref_elements(memref<3xvector<2x2xf16>>, memref<?xmemref<4xi32>>, memref<*xmemref<*xf32>>, memref<2xcomplex<f32>>)
func.func private @memory_spaces(memref<8xf32, 7>, memref<8xf32, "shared">, memref<8xf32, {bank = 2 : i64}>)
