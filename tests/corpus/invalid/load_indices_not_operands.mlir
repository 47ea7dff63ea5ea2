// ERROR: 3:23: expected ']'
func.func @f(%m: memref<4xf32>) -> f32 {
  %v = memref.load %m[ 0 ] : memref<4xf32>
  return %v : f32
}
