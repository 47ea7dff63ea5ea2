// ERROR: 3:24: custom op 'affine.for' upper loop bound affine map with multiple results requires 'min' prefix
func.func @f(%n: index) {
  affine.for %i = 0 to affine_map<()[s0] -> (s0, 10)>()[%n] {
  }
  return
}
