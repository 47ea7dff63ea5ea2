// ERROR: 3:27: custom op 'affine.load' invalid kind of type specified: expected builtin.memref, but found 'vector<4xf32>'
func.func @f(%A: memref<4xf32>, %i: index) {
  %v = affine.load %A[%i] : vector<4xf32>
  return
}
