// ERROR: 3:8: 'memref.atomic_rmw' op with kind 'mulf' expects a floating-point type
func.func @f(%m: memref<4xi32>, %v: i32, %i: index) {
  %0 = memref.atomic_rmw mulf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  return
}
