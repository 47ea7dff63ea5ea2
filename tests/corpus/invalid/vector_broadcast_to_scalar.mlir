// ERROR: 3:47: custom op 'vector.broadcast' invalid kind of type specified: expected builtin.vector, but found 'f32'
func.func @f(%v: vector<8xf32>) {
  %b = vector.broadcast %v : vector<8xf32> to f32
  return
}
