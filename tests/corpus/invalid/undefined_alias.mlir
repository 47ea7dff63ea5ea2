// ERROR: 2:37: undefined symbol alias id 'nope'
func.func @f(%A: memref<4xf32, #nope>) {
  return
}
