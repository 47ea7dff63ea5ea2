// ERROR: 2:18: memref layout mismatch between rank and affine map: 2 != 1
func.func @f(%A: memref<4x4xf32, affine_map<(d0) -> (d0)>>) {
  return
}
