// ERROR: 3:3: 'affine.store' op value to store must have the same type as memref element type
func.func @f(%A: memref<4xf32>, %v: i32, %i: index) {
  "affine.store"(%v, %A, %i) <{map = affine_map<(d0) -> (d0)>}> : (i32, memref<4xf32>, index) -> ()
  return
}
