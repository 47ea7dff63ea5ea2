// Every builtin type, with aliases: integers of any width and signedness, floats,
// index, none, vectors (scalable), tensors (ranked, unranked, encoded), memrefs (static,
// dynamic, 0-d, layout maps, strided layouts, integer, string and dialect memory spaces,
// unranked), tuples, complex, function types, dialect types.
!pair = tuple<i32, f32>
!tile = memref<32x32xf32, strided<[64, 1], offset: ?>, 1>
func.func private @types(i1, i7, si8, ui16, i64, i128, index, f16, bf16, f32, f64, f80, f128, tf32,
    f8E4M3FN, f8E5M2, none,
    vector<4xf32>, vector<2x[4]xi1>, vector<[8]xi8>,
    tensor<*xf32>, tensor<f32>, tensor<?x4xf32>, tensor<0x42xf32>, tensor<4xf32, "enc">,
    memref<f32>, memref<0xf32>, memref<?x?xf32>, memref<4x?x8xi8, 3>, memref<16xf32, "hbm">,
    memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>, 2>,
    memref<4x?xf32, strided<[?, 1], offset: ?>>, memref<8xf32, strided<[2], offset: 3>>, !tile,
    memref<4xf32, #gpu.address_space<workgroup>>, memref<*xf32>, memref<*xi8, 1>,
    !pair, tuple<>, tuple<tuple<i1>, vector<2xf16>>, complex<f32>, complex<f64>,
    (i32) -> f32, () -> (), (i32, f32) -> (f32, i32), (i1) -> ((i1) -> i1),
    !llvm.ptr, !mydialect.t<"x", [1, 2]>, !mydialect.simple) -> (memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>)
