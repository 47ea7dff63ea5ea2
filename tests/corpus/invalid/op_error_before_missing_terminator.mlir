// ERROR: 3:8: 'affine.load' op expects as many subscripts as affine map inputs
func.func @f(%A: memref<4x4xf32>, %i: index) {
  %v = "affine.load"(%A, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<4x4xf32>, index) -> f32
}
